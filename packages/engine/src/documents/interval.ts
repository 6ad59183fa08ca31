// Lower and upper edges of decimal bounds (gt/gte/lt/lte), compared exactly with compareDecimal: which
// of two edges admits more values, and whether one set of bounds lies within another.
import type { BoundName, Bounds } from '../conditions/bounds.ts';
import { compareDecimal } from '../conditions/decimal.ts';

/** The tighter of a side's two bounds, with the member that states it. */
export interface Edge {
  member: BoundName;
  value: string;
  inclusive: boolean;
}

/**
 * The effective lower edge of bounds, or undefined when nothing bounds them below.
 *
 * @example
 * lowerEdge({ gt: '10', gte: '10' }) // { member: 'gt', value: '10', inclusive: false }
 */
export function lowerEdge(b: Bounds): Edge | undefined {
  const gt: Edge | undefined = b.gt === undefined ? undefined : { member: 'gt', value: b.gt, inclusive: false };
  const gte: Edge | undefined = b.gte === undefined ? undefined : { member: 'gte', value: b.gte, inclusive: true };
  if (!gt || !gte) return gt ?? gte;
  return compareDecimal(gte.value, gt.value) > 0 ? gte : gt;
}

/**
 * The effective upper edge of bounds, or undefined when nothing bounds them above.
 *
 * @example
 * upperEdge({ lt: '100', lte: '99.99' }) // { member: 'lte', value: '99.99', inclusive: true }
 */
export function upperEdge(b: Bounds): Edge | undefined {
  const lt: Edge | undefined = b.lt === undefined ? undefined : { member: 'lt', value: b.lt, inclusive: false };
  const lte: Edge | undefined = b.lte === undefined ? undefined : { member: 'lte', value: b.lte, inclusive: true };
  if (!lt || !lte) return lt ?? lte;
  return compareDecimal(lte.value, lt.value) < 0 ? lte : lt;
}

/**
 * How the new lower edge compares with the old: `looser` admits values the old did not.
 *
 * @example
 * compareLower({ member: 'gt', value: '10', inclusive: false }, { member: 'gte', value: '10', inclusive: true }) // 'looser'
 */
export function compareLower(before: Edge | undefined, after: Edge | undefined): 'looser' | 'tighter' | 'same' {
  if (!before) return after ? 'tighter' : 'same';
  if (!after) return 'looser';
  const c = compareDecimal(after.value, before.value);
  if (c !== 0) return c < 0 ? 'looser' : 'tighter';
  if (after.inclusive === before.inclusive) return 'same';
  return after.inclusive ? 'looser' : 'tighter';
}

/**
 * How the new upper edge compares with the old: `looser` admits values the old did not.
 *
 * @example
 * compareUpper(upperEdge({ lte: '100' }), upperEdge({ lte: '250' })) // 'looser'
 */
export function compareUpper(before: Edge | undefined, after: Edge | undefined): 'looser' | 'tighter' | 'same' {
  if (!before) return after ? 'tighter' : 'same';
  if (!after) return 'looser';
  const c = compareDecimal(after.value, before.value);
  if (c !== 0) return c > 0 ? 'looser' : 'tighter';
  if (after.inclusive === before.inclusive) return 'same';
  return after.inclusive ? 'looser' : 'tighter';
}

/**
 * Whether every value the inner bounds admit, the outer admit too.
 *
 * @example
 * boundsWithin({ gt: '100', lte: '500' }, { gt: '50' }) // true
 */
export function boundsWithin(inner: Bounds, outer: Bounds): boolean {
  return compareLower(lowerEdge(inner), lowerEdge(outer)) !== 'tighter' && compareUpper(upperEdge(inner), upperEdge(outer)) !== 'tighter';
}

/**
 * Describes a change of one edge, in the document's own words: `lte 100 -> 250`, `lte 100 -> lt 250`,
 * `lte 100 removed`, `gt 5 added`.
 *
 * @example
 * describeEdgeChange(upperEdge({ lte: '100' }), upperEdge({ lte: '250' })) // 'lte 100 -> 250'
 */
export function describeEdgeChange(before: Edge | undefined, after: Edge | undefined): string {
  if (before && after)
    return `${before.member} ${before.value} -> ${after.member === before.member ? '' : `${after.member} `}${after.value}`;
  if (before) return `${before.member} ${before.value} removed`;
  return after ? `${after.member} ${after.value} added` : 'unchanged';
}
