// Guard expressions of the rulebook, decided in three-valued (Kleene) logic without allocating.
import { compareNumeric } from '../conditions/bounds.ts';
import { FALSE, TRUE, type Tri, UNKNOWN } from '../conditions/tri.ts';
import type { ComparisonOp, Expr, Literal } from './types.ts';

/**
 * Decides a guard. `context` is TRUE or FALSE only where the host set a boolean; `arg` compares the
 * call's own top-level argument and is UNKNOWN when it is missing or cannot be compared (a decimal
 * needs a readable number, a string a string, a boolean a boolean). A host context can never stand in
 * for an `arg`: the two read different inputs.
 *
 * @example
 * const guard: Expr = { any: [{ not: { arg: 'amount', op: 'gt', value: { decimal: '200' } } }, { context: 'supervisor_approved' }] };
 * evaluateExpr(guard, { amount: 50 }, {}) // TRUE
 * evaluateExpr(guard, { amount: 500 }, {}) // UNKNOWN: the approval is not set
 * evaluateExpr(guard, {}, { supervisor_approved: true }) // TRUE
 */
export function evaluateExpr(expr: Expr, args: unknown, contexts: Record<string, unknown>): Tri {
  if ('context' in expr) {
    const value = Object.hasOwn(contexts, expr.context) ? contexts[expr.context] : undefined;
    return value === true ? TRUE : value === false ? FALSE : UNKNOWN;
  }
  if ('arg' in expr) return compareArgument(args, expr.arg, expr.op, expr.value);
  if ('not' in expr) {
    const t = evaluateExpr(expr.not, args, contexts);
    return t === TRUE ? FALSE : t === FALSE ? TRUE : UNKNOWN;
  }
  if ('all' in expr) {
    let result: Tri = TRUE;
    for (const item of expr.all) {
      const t = evaluateExpr(item, args, contexts);
      if (t === FALSE) return FALSE;
      if (t === UNKNOWN) result = UNKNOWN;
    }
    return result;
  }
  let result: Tri = FALSE;
  for (const item of expr.any) {
    const t = evaluateExpr(item, args, contexts);
    if (t === TRUE) return TRUE;
    if (t === UNKNOWN) result = UNKNOWN;
  }
  return result;
}

function compareArgument(args: unknown, name: string, op: ComparisonOp, literal: Literal): Tri {
  if (args === null || typeof args !== 'object' || Array.isArray(args) || !Object.hasOwn(args, name)) return UNKNOWN;
  const value = (args as Record<string, unknown>)[name];
  if ('decimal' in literal) return compareNumeric(value, op, literal.decimal);
  // Strings and booleans are only ever equal or not; an ordering on them cannot be stated.
  if (op !== 'eq') return UNKNOWN;
  if ('string' in literal) return typeof value === 'string' ? (value === literal.string ? TRUE : FALSE) : UNKNOWN;
  return typeof value === 'boolean' ? (value === literal.boolean ? TRUE : FALSE) : UNKNOWN;
}

/**
 * The host contexts a guard needs that this call's contexts do not give it: each `context` whose value
 * would have to change for the guard to hold (TRUE under an even number of `not`s, FALSE under an odd).
 * Names only, never values, so a refusal can say what is missing.
 *
 * @example
 * unmetContexts({ all: [{ context: 'a' }, { not: { context: 'b' } }] }, { a: true, b: true }) // ['b']
 */
export function unmetContexts(expr: Expr, contexts: Record<string, unknown>): string[] {
  // A set keeps the order names are met in and finds a repeat at once (a guard may name 4096 contexts).
  const out = new Set<string>();
  collect(expr, contexts, true, out);
  return [...out];
}

function collect(expr: Expr, contexts: Record<string, unknown>, positive: boolean, out: Set<string>): void {
  if ('context' in expr) {
    const value = Object.hasOwn(contexts, expr.context) ? contexts[expr.context] : undefined;
    if (value !== positive) out.add(expr.context);
  } else if ('not' in expr) collect(expr.not, contexts, !positive, out);
  else if ('all' in expr) for (const item of expr.all) collect(item, contexts, positive, out);
  else if ('any' in expr) for (const item of expr.any) collect(item, contexts, positive, out);
}
