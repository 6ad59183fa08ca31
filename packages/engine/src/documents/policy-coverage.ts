// Which calls a policy rule covers, compared between two versions of the rule: its actions, tools, amount
// condition and argument conditions, each change said in the document's words and marked as covering
// more calls (grows), fewer (shrinks) or some of each.
import { type Bounds, pickBounds } from '../conditions/bounds.ts';
import type { Condition } from '../conditions/condition.ts';
import { familyOf } from '../conditions/condition.ts';
import type { PolicyRule } from '../policy/types.ts';
import { canonicalJson } from '../rulebook/canonical.ts';
import { boundsWithin, compareLower, compareUpper, describeEdgeChange, lowerEdge, upperEdge } from './interval.ts';

/** One change in what a rule covers, said as `actions + orders.export` (the rule's id goes in front). */
export interface CoverageChange {
  subject: string;
  grows: boolean;
  shrinks: boolean;
}

/**
 * Does a pattern match every action another matches (`*` covers all, `a.*` covers `a.b` and `a.b.*`).
 *
 * @example
 * patternCovers('orders.*', 'orders.export') // true
 * patternCovers('orders.read', 'orders.*') // false
 */
export function patternCovers(outer: string, inner: string): boolean {
  if (outer === '*') return true;
  if (inner === '*') return false;
  if (outer.endsWith('.*')) {
    const prefix = outer.slice(0, -1);
    return inner.startsWith(prefix) && inner.length > prefix.length;
  }
  return outer === inner;
}

/**
 * Patterns of `after` that none of `before` covers: the actions a list newly reaches.
 *
 * @example
 * uncoveredPatterns(['orders.*'], ['orders.read', 'payouts.send']) // ['payouts.send']
 */
export function uncoveredPatterns(before: readonly string[], after: readonly string[]): string[] {
  return after.filter((p) => !before.some((q) => patternCovers(q, p)));
}

/**
 * The changes in what a rule covers from one version to the next, in the order actions, tools, amount,
 * conditions. The same for every effect: an allow widens where it grows, a deny or approval where it shrinks.
 *
 * @example
 * coverageChanges({ id: 'r', actions: ['orders.read'], effect: 'allow' }, { id: 'r', actions: ['orders.read', 'orders.export'], effect: 'allow' })
 * // [{ subject: 'actions + orders.export', grows: true, shrinks: false }]
 */
export function coverageChanges(before: PolicyRule, after: PolicyRule): CoverageChange[] {
  return [
    ...actionChanges(before.actions, after.actions),
    ...toolChanges(before.tools, after.tools),
    ...amountChanges(before, after),
    ...conditionChanges(before.when ?? [], after.when ?? []),
  ];
}

const grows = (subject: string): CoverageChange => ({ subject, grows: true, shrinks: false });
const shrinks = (subject: string): CoverageChange => ({ subject, grows: false, shrinks: true });
const shifts = (subject: string): CoverageChange => ({ subject, grows: true, shrinks: true });

function actionChanges(before: readonly string[], after: readonly string[]): CoverageChange[] {
  return [
    ...uncoveredPatterns(before, after).map((p) => grows(`actions + ${p}`)),
    ...uncoveredPatterns(after, before).map((p) => shrinks(`actions - ${p}`)),
  ];
}

function toolChanges(before: readonly string[] | undefined, after: readonly string[] | undefined): CoverageChange[] {
  if (!before && !after) return [];
  if (before && !after) return [grows('tools removed')];
  if (!before && after) return [shrinks(`tools restricted to ${after.join(', ')}`)];
  const b = before ?? [];
  const a = after ?? [];
  return [
    ...a.filter((t) => !b.includes(t)).map((t) => grows(`tools + ${t}`)),
    ...b.filter((t) => !a.includes(t)).map((t) => shrinks(`tools - ${t}`)),
  ];
}

function amountChanges(before: PolicyRule, after: PolicyRule): CoverageChange[] {
  const b = before.amount;
  const a = after.amount;
  if (!b && !a) return [];
  // No amount condition covers every call; one covers only calls in its bounds (and, failing closed,
  // for deny and approval, calls without a readable amount).
  if (b && !a) return [grows('amount removed')];
  if (!b && a) return [shrinks('amount added')];
  if (!b || !a) return [];
  if (b.currency !== a.currency) return [shifts(`amount currency ${b.currency} -> ${a.currency}`)];
  return boundChanges('amount', boundsOf(b), boundsOf(a));
}

function boundsOf(holder: object): Bounds {
  return pickBounds(holder as Record<string, unknown>);
}

/**
 * Changes of a lower and an upper edge, said as `<what> lte 100 -> 250`.
 *
 * @example
 * boundChanges('amount', { lte: '100' }, { lte: '250' }) // [{ subject: 'amount lte 100 -> 250', grows: true, shrinks: false }]
 */
export function boundChanges(what: string, before: Bounds, after: Bounds): CoverageChange[] {
  const out: CoverageChange[] = [];
  const lb = lowerEdge(before);
  const la = lowerEdge(after);
  const lower = compareLower(lb, la);
  if (lower !== 'same')
    out.push({ subject: `${what} ${describeEdgeChange(lb, la)}`, grows: lower === 'looser', shrinks: lower === 'tighter' });
  const ub = upperEdge(before);
  const ua = upperEdge(after);
  const upper = compareUpper(ub, ua);
  if (upper !== 'same')
    out.push({ subject: `${what} ${describeEdgeChange(ub, ua)}`, grows: upper === 'looser', shrinks: upper === 'tighter' });
  return out;
}

/**
 * Conditions are matched as written; of those left, one before and one after at the same path are read
 * as one condition changed, the rest as dropped (covers more) or added (covers less).
 */
function conditionChanges(before: readonly Condition[], after: readonly Condition[]): CoverageChange[] {
  const unmatchedAfter = [...after];
  const unmatchedBefore: Condition[] = [];
  for (const c of before) {
    const i = unmatchedAfter.findIndex((d) => canonicalJson(d) === canonicalJson(c));
    if (i >= 0) unmatchedAfter.splice(i, 1);
    else unmatchedBefore.push(c);
  }
  const out: CoverageChange[] = [];
  for (const c of unmatchedBefore) {
    const sameBefore = unmatchedBefore.filter((d) => d.path === c.path);
    const sameAfter = unmatchedAfter.filter((d) => d.path === c.path);
    const partner = sameAfter[0];
    if (sameBefore.length === 1 && sameAfter.length === 1 && partner) {
      out.push(...changedCondition(c, partner));
      unmatchedAfter.splice(unmatchedAfter.indexOf(partner), 1);
    } else out.push(grows(`when ${c.path} dropped`));
  }
  for (const d of unmatchedAfter) out.push(shrinks(`when ${d.path} added`));
  return out;
}

function changedCondition(before: Condition, after: Condition): CoverageChange[] {
  const at = `when ${before.path}`;
  const out: CoverageChange[] = [];
  if (before.for !== after.for) {
    // `any` holds wherever `all` does, and fails nowhere `all` holds.
    const subject = `${at} for ${before.for} -> ${after.for}`;
    out.push(after.for === 'any' ? grows(subject) : shrinks(subject));
  }
  const family = familyOf(before).name;
  if (familyOf(after).name !== family) return [...out, shifts(`${at} ${describeOperands(before)} -> ${describeOperands(after)}`)];
  if (family === 'eq') {
    if (canonicalJson(before.eq) !== canonicalJson(after.eq))
      out.push(shifts(`${at} eq ${JSON.stringify(before.eq)} -> ${JSON.stringify(after.eq)}`));
    return out;
  }
  if (family === 'in' || family === 'starts_with') {
    const key = family === 'in' ? 'in' : 'starts_with';
    const b = (before[key] ?? []).map((v) => JSON.stringify(v));
    const a = (after[key] ?? []).map((v) => JSON.stringify(v));
    for (const v of a) if (!b.includes(v)) out.push(grows(`${at} ${key} + ${v}`));
    for (const v of b) if (!a.includes(v)) out.push(shrinks(`${at} ${key} - ${v}`));
    return out;
  }
  return [...out, ...boundChanges(at, boundsOf(before), boundsOf(after))];
}

function describeOperands(c: Condition): string {
  const record = c as unknown as Record<string, unknown>;
  return familyOf(c)
    .members.filter((m) => record[m] !== undefined)
    .map((m) => `${m} ${JSON.stringify(record[m])}`)
    .join(' ');
}

/**
 * Whether every call `inner` is a candidate for, `outer` is a candidate for too, for `inner` a deny or
 * require_approval rule (which also matches where an amount or condition is unknown). An allow `outer`
 * matches only where everything is known, so it holds `inner` only when it has no amount or conditions.
 *
 * @example
 * ruleWithin({ id: 'a', actions: ['refund.issue'], effect: 'require_approval' }, { id: 'b', actions: ['refund.*'], effect: 'allow' }) // true
 */
export function ruleWithin(inner: PolicyRule, outer: PolicyRule): boolean {
  if (uncoveredPatterns(outer.actions, inner.actions).length > 0) return false;
  if (outer.tools && !inner.tools?.every((t) => outer.tools?.includes(t))) return false;
  const strict = outer.effect === 'allow';
  if (outer.amount) {
    if (strict || !inner.amount || inner.amount.currency !== outer.amount.currency) return false;
    if (!boundsWithin(boundsOf(inner.amount), boundsOf(outer.amount))) return false;
  }
  const conditions = outer.when ?? [];
  if (conditions.length > 0) {
    if (strict) return false;
    const own = new Set((inner.when ?? []).map((c) => canonicalJson(c)));
    if (!conditions.every((c) => own.has(canonicalJson(c)))) return false;
  }
  return true;
}
