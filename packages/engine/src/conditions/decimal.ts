// Exact decimals: strict grammars, an allocation-free comparison of well-formed strings, and
// decimal.js for normalising. Floating point is never used on a value that decides anything.
import Decimal from 'decimal.js';
import { type JsonNumber, numberReadings } from '../source/json-number.ts';

/** Most digits before, and after, the decimal point. */
export const MAX_DECIMAL_DIGITS = 18;

/**
 * Is `s` a decimal string: optional `-` (when `signed`), digits without leading zeros (at most 18),
 * optionally `.` and 1 to 18 digits; no exponent, no `+`, no spaces.
 *
 * @example
 * isDecimalString('12.50') // true
 * isDecimalString('012') // false
 * isDecimalString('-3', true) // true
 */
export function isDecimalString(s: string, signed = false): boolean {
  return scanDecimal(s, signed, MAX_DECIMAL_DIGITS);
}

/**
 * Is `s` a decimal value as a call may carry one (an amount, an argument compared numerically): the
 * grammar of {@link isDecimalString} without a limit on integer digits, since docs/policy.md ("Amounts")
 * bounds only the fraction ("1 to 18 fraction digits"). A value beyond every threshold still compares exactly.
 *
 * @example
 * isDecimalValue('1000000000000000000000') // true
 * isDecimalValue('0.1234567890123456789') // false: 19 fraction digits
 */
export function isDecimalValue(s: string, signed = false): boolean {
  return scanDecimal(s, signed, Number.POSITIVE_INFINITY);
}

function scanDecimal(s: string, signed: boolean, maxIntegerDigits: number): boolean {
  const n = s.length;
  let i = 0;
  if (signed && n > 0 && s.charCodeAt(0) === 45 /* - */) i = 1;
  const intStart = i;
  while (i < n && isDigit(s.charCodeAt(i))) i++;
  const intLength = i - intStart;
  if (intLength === 0 || intLength > maxIntegerDigits) return false;
  if (intLength > 1 && s.charCodeAt(intStart) === 48 /* 0 */) return false;
  if (i === n) return true;
  if (s.charCodeAt(i) !== 46 /* . */) return false;
  i++;
  const fracStart = i;
  while (i < n && isDigit(s.charCodeAt(i))) i++;
  const fracLength = i - fracStart;
  return i === n && fracLength >= 1 && fracLength <= MAX_DECIMAL_DIGITS;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/**
 * Compares two strings accepted by {@link isDecimalValue} (signed allowed), exactly and without
 * allocating: -1, 0 or 1. `"1.50"` equals `"1.5"`, `"-0"` equals `"0"`.
 */
export function compareDecimal(a: string, b: string): -1 | 0 | 1 {
  const sa = signOf(a);
  const sb = signOf(b);
  if (sa !== sb) return sa < sb ? -1 : 1;
  if (sa === 0) return 0;
  const magnitude = compareMagnitude(a, sa < 0 ? 1 : 0, b, sb < 0 ? 1 : 0);
  // Negate without producing -0 for equal negative values.
  if (sa > 0 || magnitude === 0) return magnitude;
  return magnitude < 0 ? 1 : -1;
}

function signOf(s: string): -1 | 0 | 1 {
  const negative = s.charCodeAt(0) === 45;
  for (let i = negative ? 1 : 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c !== 48 && c !== 46) return negative ? -1 : 1;
  }
  return 0;
}

function compareMagnitude(a: string, aStart: number, b: string, bStart: number): -1 | 0 | 1 {
  const aDot = dotIndex(a, aStart);
  const bDot = dotIndex(b, bStart);
  const aInt = aDot - aStart;
  const bInt = bDot - bStart;
  // No leading zeros, so the longer integer part is the larger number.
  if (aInt !== bInt) return aInt < bInt ? -1 : 1;
  for (let k = 0; k < aInt; k++) {
    const d = a.charCodeAt(aStart + k) - b.charCodeAt(bStart + k);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  const aFrac = a.length - aDot - 1;
  const bFrac = b.length - bDot - 1;
  const longest = Math.max(aFrac, bFrac);
  for (let k = 0; k < longest; k++) {
    const da = k < aFrac ? a.charCodeAt(aDot + 1 + k) : 48;
    const db = k < bFrac ? b.charCodeAt(bDot + 1 + k) : 48;
    if (da !== db) return da < db ? -1 : 1;
  }
  return 0;
}

function dotIndex(s: string, from: number): number {
  const i = s.indexOf('.', from);
  return i === -1 ? s.length : i;
}

/**
 * Reads a value as a decimal string for numeric comparison: a well-formed decimal string as it is, a
 * safe-integer JSON number as its digits. Anything else (a number kept as written, which has two readings:
 * see {@link keptNumberReadings}; a fraction or huge JavaScript number, whose source digits are lost to
 * floating point; a boolean; a malformed string) is undefined: indeterminate.
 */
export function readNumeric(value: unknown): string | undefined {
  if (typeof value === 'string') return isDecimalValue(value, true) ? value : undefined;
  if (typeof value === 'number') return Number.isSafeInteger(value) ? String(value) : undefined;
  return undefined;
}

/**
 * The canonical form of a decimal string: trailing fraction zeros and a trailing point removed,
 * so `"100.00"` and `"100"` give the same document and digest.
 */
export function normalizeDecimal(s: string): string {
  return new Decimal(s).toFixed();
}

/**
 * A number kept as written (`12.0`, `1E2`, `500.00000000000001`) as the two decimal strings a comparison
 * must agree on: the number as written, and as a reader that parses it into a double sees it. The gate
 * cannot know which reader the upstream tool uses, so a comparison whose answer differs between the two is
 * indeterminate (docs/policy.md, "Numbers in arguments"). Undefined when either reading is not a decimal
 * value (more than 18 fraction digits, an exponent out of range).
 *
 * @example
 * keptNumberReadings(new JsonNumber('1E2')); // ['100', '100']
 */
export function keptNumberReadings(value: JsonNumber): readonly [string, string] | undefined {
  const readings = numberReadings(value);
  if (readings === undefined) return undefined;
  if (!isDecimalValue(readings.written, true) || !isDecimalValue(readings.double, true)) return undefined;
  return [readings.written, readings.double];
}
