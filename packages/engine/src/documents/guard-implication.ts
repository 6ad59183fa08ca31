// Whether one rulebook guard allows no call another does not: a small sound prover over the guard IR
// (all/any/not, contexts, exact comparisons of one argument), and the guard printed as Colang words.
import { compareDecimal } from '../conditions/decimal.ts';
import { canonicalJson } from '../rulebook/canonical.ts';
import type { ComparisonOp, Expr, Literal } from '../rulebook/types.ts';

/**
 * Whether `a` implies `b` in three-valued logic: wherever `a` is true `b` is true, and wherever `b` is
 * false `a` is false. A false answer means "not shown", never "shown not to".
 *
 * @example
 * guardImplies({ all: [{ context: 'x' }, { context: 'y' }] }, { context: 'x' }) // true
 * guardImplies({ context: 'x' }, { all: [{ context: 'x' }, { context: 'y' }] }) // false
 */
export function guardImplies(a: Expr, b: Expr): boolean {
  if (keyOf(a) === keyOf(b)) return true;
  if ('all' in b) return b.all.every((child) => guardImplies(a, child));
  if ('any' in a) return a.any.every((child) => guardImplies(child, b));
  if ('all' in a && partsOf(a.all).some(b, (child) => guardImplies(child, b))) return true;
  if ('any' in b && partsOf(b.any).some(a, (child) => guardImplies(a, child))) return true;
  if ('not' in a && 'not' in b) return guardImplies(b.not, a.not);
  if ('arg' in a && 'arg' in b) return comparisonImplies(a, b);
  return false;
}

// Guards are immutable, so each node's canonical JSON and each list's parts are computed once: a guard of
// thousands of contexts against another was quadratic in canonicalJson calls (4095 contexts: 8 s).
const keys = new WeakMap<Expr, string>();
const parts = new WeakMap<readonly Expr[], Parts>();

function keyOf(expr: Expr): string {
  let key = keys.get(expr);
  if (key === undefined) {
    key = canonicalJson(expr);
    keys.set(expr, key);
  }
  return key;
}

/**
 * The items of an all/any split for lookup. A context can only be related to a context by being the same
 * one, and a comparison to a comparison only of the same argument, so `some` looks up equal items by key,
 * and otherwise tries only the items that could relate to `other`: nested ones, and comparisons of its
 * argument. The answer is the one a scan of every item gives.
 */
interface Parts {
  some(other: Expr, relates: (item: Expr) => boolean): boolean;
}

function partsOf(items: readonly Expr[]): Parts {
  let found = parts.get(items);
  if (found) return found;
  const itemKeys = new Set(items.map(keyOf));
  const nested = items.filter((e) => !('context' in e) && !('arg' in e));
  const byArg = new Map<string, Expr[]>();
  for (const e of items) if ('arg' in e) byArg.set(e.arg, [...(byArg.get(e.arg) ?? []), e]);
  found = {
    some(other, relates) {
      if (itemKeys.has(keyOf(other))) return true;
      if ('context' in other) return nested.some(relates);
      if ('arg' in other) return (byArg.get(other.arg) ?? []).some(relates) || nested.some(relates);
      return items.some(relates);
    },
  };
  parts.set(items, found);
  return found;
}

type Comparison = { arg: string; op: ComparisonOp; value: Literal };

/** Two comparisons of one argument with decimals: the values the first admits lie within the second's. */
function comparisonImplies(a: Comparison, b: Comparison): boolean {
  if (a.arg !== b.arg || !('decimal' in a.value) || !('decimal' in b.value)) return false;
  const x = a.value.decimal;
  const y = b.value.decimal;
  const c = compareDecimal(x, y);
  switch (b.op) {
    case 'gt':
      return (a.op === 'gt' && c >= 0) || ((a.op === 'gte' || a.op === 'eq') && c > 0);
    case 'gte':
      return (a.op === 'gt' || a.op === 'gte' || a.op === 'eq') && c >= 0;
    case 'lt':
      return (a.op === 'lt' && c <= 0) || ((a.op === 'lte' || a.op === 'eq') && c < 0);
    case 'lte':
      return (a.op === 'lt' || a.op === 'lte' || a.op === 'eq') && c <= 0;
    default:
      return a.op === 'eq' && c === 0;
  }
}

const SYMBOL: Record<ComparisonOp, string> = { gt: '>', lt: '<', gte: '>=', lte: '<=', eq: '==' };

/**
 * A guard in Colang's words, computed contexts written out as their comparisons.
 *
 * @example
 * printGuard({ any: [{ not: { arg: 'amount', op: 'gt', value: { decimal: '200' } } }, { context: 'approved' }] })
 * // 'not amount > 200 or $approved'
 */
export function printGuard(expr: Expr): string {
  if ('context' in expr) return `$${expr.context}`;
  if ('arg' in expr) return `${expr.arg} ${SYMBOL[expr.op]} ${literalText(expr.value)}`;
  if ('not' in expr) return `not ${wrap(expr.not)}`;
  if ('all' in expr) return expr.all.map((e) => ('any' in e ? `(${printGuard(e)})` : printGuard(e))).join(' and ');
  return expr.any.map(printGuard).join(' or ');
}

function wrap(expr: Expr): string {
  return 'all' in expr || 'any' in expr ? `(${printGuard(expr)})` : printGuard(expr);
}

function literalText(value: Literal): string {
  if ('decimal' in value) return value.decimal;
  if ('string' in value) return JSON.stringify(value.string);
  return String(value.boolean);
}
