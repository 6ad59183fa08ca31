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
  if (canonicalJson(a) === canonicalJson(b)) return true;
  if ('all' in b) return b.all.every((child) => guardImplies(a, child));
  if ('any' in a) return a.any.every((child) => guardImplies(child, b));
  if ('all' in a && a.all.some((child) => guardImplies(child, b))) return true;
  if ('any' in b && b.any.some((child) => guardImplies(a, child))) return true;
  if ('not' in a && 'not' in b) return guardImplies(b.not, a.not);
  if ('arg' in a && 'arg' in b) return comparisonImplies(a, b);
  return false;
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
