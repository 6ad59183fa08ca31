// Numeric bounds `gt`/`gte`/`lt`/`lte`: decimal-string operands, combinable, compared exactly.
// Shared by argument conditions and the amount condition of a policy rule.
import type { Diagnostic } from '../source/diagnostic.ts';
import { JsonNumber } from '../source/json-number.ts';
import { compareDecimal, isDecimalString, isDecimalValue, keptNumberReadings, readNumeric } from './decimal.ts';
import type { OperatorFamily } from './family.ts';
import { problem } from './family.ts';
import { FALSE, TRUE, type Tri, UNKNOWN } from './tri.ts';

export const BOUND_MEMBERS = ['gt', 'gte', 'lt', 'lte'] as const;
export type BoundName = (typeof BOUND_MEMBERS)[number];

/** Bounds as written; each a decimal string. */
export type Bounds = Partial<Record<BoundName, string>>;

/**
 * Validates the bounds present in `holder`; pushes INVALID_DECIMAL and CONTRADICTORY_BOUNDS.
 * `signed` admits negative thresholds (argument conditions); amounts are never negative.
 */
export function validateBounds(holder: Record<string, unknown>, path: string, problems: Diagnostic[], signed: boolean): void {
  let wellFormed = true;
  for (const name of BOUND_MEMBERS) {
    const value = holder[name];
    if (value === undefined) continue;
    if (typeof value !== 'string' || !isDecimalString(value, signed)) {
      wellFormed = false;
      const form = signed ? 'a decimal string such as "100", "-5" or "99.50"' : 'a non-negative decimal string such as "100" or "99.50"';
      problems.push(
        problem(
          'INVALID_DECIMAL',
          `${path}/${name}`,
          `expected ${form}: no exponent, no leading zeros, at most 18 digits before and after the point`,
        ),
      );
    }
  }
  if (wellFormed && !boundsAdmitAValue(holder as Bounds)) {
    problems.push(problem('CONTRADICTORY_BOUNDS', path, 'these bounds admit no value; check the lower bound is below the upper'));
  } else if (wellFormed && !signed && !boundsAdmitAValue({ gte: '0', ...(holder as Bounds) })) {
    // An amount is never negative: `lt "0"` admits no amount, as `gt 100` with `lt 50` admits no value.
    problems.push(problem('CONTRADICTORY_BOUNDS', path, 'an amount is never negative, so these bounds admit no amount'));
  }
}

/** Whether some decimal satisfies every bound (decimals are dense, so only the equal case needs care). */
export function boundsAdmitAValue(b: Bounds): boolean {
  const lower = tighterLower(b);
  const upper = tighterUpper(b);
  if (!lower || !upper) return true;
  const c = compareDecimal(lower.value, upper.value);
  if (c < 0) return true;
  if (c > 0) return false;
  return lower.inclusive && upper.inclusive;
}

function tighterLower(b: Bounds): { value: string; inclusive: boolean } | undefined {
  if (b.gt === undefined) return b.gte === undefined ? undefined : { value: b.gte, inclusive: true };
  if (b.gte === undefined) return { value: b.gt, inclusive: false };
  return compareDecimal(b.gte, b.gt) > 0 ? { value: b.gte, inclusive: true } : { value: b.gt, inclusive: false };
}

function tighterUpper(b: Bounds): { value: string; inclusive: boolean } | undefined {
  if (b.lt === undefined) return b.lte === undefined ? undefined : { value: b.lte, inclusive: true };
  if (b.lte === undefined) return { value: b.lt, inclusive: false };
  return compareDecimal(b.lte, b.lt) < 0 ? { value: b.lte, inclusive: true } : { value: b.lt, inclusive: false };
}

/** Whether a well-formed decimal string satisfies every bound. */
export function satisfiesBounds(decimal: string, b: Bounds): boolean {
  if (b.gt !== undefined && compareDecimal(decimal, b.gt) <= 0) return false;
  if (b.gte !== undefined && compareDecimal(decimal, b.gte) < 0) return false;
  if (b.lt !== undefined && compareDecimal(decimal, b.lt) >= 0) return false;
  if (b.lte !== undefined && compareDecimal(decimal, b.lte) > 0) return false;
  return true;
}

/** Picks the bounds out of a condition or amount object. */
export function pickBounds(holder: Record<string, unknown>): Bounds {
  const b: Bounds = {};
  for (const name of BOUND_MEMBERS) {
    const v = holder[name];
    if (typeof v === 'string') b[name] = v;
  }
  return b;
}

export const boundsFamily: OperatorFamily = {
  name: 'bounds',
  members: BOUND_MEMBERS,
  validate(condition, path, problems) {
    validateBounds(condition, path, problems, true);
  },
  compile(condition) {
    const b = pickBounds(condition);
    return (value) => {
      if (value instanceof JsonNumber) return agreed(value, (decimal) => satisfiesBounds(decimal, b));
      const decimal = readNumeric(value);
      if (decimal === undefined) return UNKNOWN;
      return satisfiesBounds(decimal, b) ? TRUE : FALSE;
    };
  },
};

export type NumericOp = 'gt' | 'gte' | 'lt' | 'lte' | 'eq';

/**
 * Compares a value from a call with a decimal, exactly: unknown when the value is not a readable number
 * (see readNumeric) or the bound is not a decimal.
 *
 * @example
 * compareNumeric('250', 'gt', '200') // TRUE
 * compareNumeric('abc', 'gt', '200') // UNKNOWN
 */
export function compareNumeric(value: unknown, op: NumericOp, bound: string): Tri {
  if (!isDecimalValue(bound, true)) return UNKNOWN;
  if (value instanceof JsonNumber) return agreed(value, (n) => holds(compareDecimal(n, bound), op));
  const n = readNumeric(value);
  if (n === undefined) return UNKNOWN;
  return holds(compareDecimal(n, bound), op) ? TRUE : FALSE;
}

function holds(c: -1 | 0 | 1, op: NumericOp): boolean {
  switch (op) {
    case 'gt':
      return c > 0;
    case 'gte':
      return c >= 0;
    case 'lt':
      return c < 0;
    case 'lte':
      return c <= 0;
    default:
      return c === 0;
  }
}

/**
 * A test on a number kept as written: TRUE or FALSE when its reading as written and its reading as a
 * double give the same answer, else indeterminate, so no reader of the call can see the other side of a
 * bound (`500.00000000000001` is not `lte 500` as written, but is as a double: neither allows).
 */
export function agreed(value: JsonNumber, test: (decimal: string) => boolean): Tri {
  const readings = keptNumberReadings(value);
  if (readings === undefined) return UNKNOWN;
  const asWritten = test(readings[0]);
  if (asWritten !== test(readings[1])) return UNKNOWN;
  return asWritten ? TRUE : FALSE;
}
