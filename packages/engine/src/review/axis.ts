// A number axis cut at thresholds: the points themselves and the open intervals between them, each with
// a witness inside it, so a decision is taken on a real value of every piece (docs/review.md, "Regions").
// Exact: decimal.js and compareDecimal, never floats.
import Decimal from 'decimal.js';
import { compareDecimal, isDecimalValue, MAX_DECIMAL_DIGITS } from '../conditions/decimal.ts';

/**
 * decimal.js rounds arithmetic to 20 significant digits by default; thresholds have up to 36 (18 before
 * and after the point), so the axis computes with room to spare and never rounds a witness.
 */
export const Exact = Decimal.clone({ precision: 200 });
type Exact = InstanceType<typeof Exact>;

/** A piece of the axis. `lo: null` is minus infinity, `hi: null` plus infinity. */
export interface Interval {
  lo: string | null;
  loInclusive: boolean;
  hi: string | null;
  hiInclusive: boolean;
}

/** One piece of a cut axis with a value inside it (a valid decimal of at most 18 fraction digits). */
export interface Piece {
  interval: Interval;
  witness: string;
}

/**
 * Cuts the axis at every threshold: points and the open intervals between them, in order. `floor` is
 * the axis's least value (amounts start at "0"), or null for a signed axis. Pieces that hold no decimal
 * of at most 18 fraction digits are left out.
 *
 * @example
 * cutAxis(['100', '250'], '0').map((p) => formatInterval(p.interval)) // ['[0, 100)', '= 100', '(100, 250)', '= 250', '(250, inf)']
 */
export function cutAxis(thresholds: readonly string[], floor: string | null): Piece[] {
  const points = distinctSorted(floor === null ? thresholds : thresholds.filter((t) => compareDecimal(t, floor) >= 0));
  const intervals: Interval[] = [];
  let lo: string | null = floor;
  let loInclusive = floor !== null;
  for (const t of points) {
    // A floor equal to the first threshold leaves no interval before it.
    if (lo === null || compareDecimal(lo, t) < 0) intervals.push({ lo, loInclusive, hi: t, hiInclusive: false });
    intervals.push({ lo: t, loInclusive: true, hi: t, hiInclusive: true });
    lo = t;
    loInclusive = false;
  }
  intervals.push({ lo, loInclusive, hi: null, hiInclusive: false });
  const pieces: Piece[] = [];
  for (const interval of intervals) {
    const witness = witnessIn(interval);
    if (witness !== undefined) pieces.push({ interval, witness });
  }
  return pieces;
}

function distinctSorted(values: readonly string[]): string[] {
  const sorted = [...values].sort((a, b) => compareDecimal(a, b));
  return sorted.filter((v, i) => i === 0 || compareDecimal(sorted[i - 1] as string, v) !== 0).map(canonical);
}

/** The canonical spelling of a decimal: `100.00` is `100`. */
export function canonical(value: string): string {
  const d = new Exact(value);
  return d.isZero() ? '0' : d.toFixed();
}

/** A decimal inside the interval with at most 18 fraction digits, or undefined when it holds none. */
export function witnessIn(interval: Interval): string | undefined {
  const { lo, hi } = interval;
  let w: Exact;
  if (lo !== null && hi !== null && compareDecimal(lo, hi) === 0) w = new Exact(lo);
  else if (lo === null && hi === null) w = new Exact(0);
  else if (hi === null) w = new Exact(lo as string).floor().plus(1);
  else if (lo === null) w = new Exact(hi).ceil().minus(1);
  else w = new Exact(lo).plus(hi).div(2).toDecimalPlaces(MAX_DECIMAL_DIGITS, Exact.ROUND_DOWN);
  const s = w.isZero() ? '0' : w.toFixed();
  if (!isDecimalValue(s, true) || !contains(interval, s)) {
    // A closed lower end is a witness of its own when the midpoint is not.
    if (lo !== null && interval.loInclusive && contains(interval, lo)) return canonical(lo);
    return undefined;
  }
  return s;
}

/** Whether a decimal lies in the interval. */
export function contains(interval: Interval, value: string): boolean {
  if (interval.lo !== null) {
    const c = compareDecimal(value, interval.lo);
    if (c < 0 || (c === 0 && !interval.loInclusive)) return false;
  }
  if (interval.hi !== null) {
    const c = compareDecimal(value, interval.hi);
    if (c > 0 || (c === 0 && !interval.hiInclusive)) return false;
  }
  return true;
}

/** Whether `b` starts where `a` ends, so the two join into one interval. */
export function adjacent(a: Interval, b: Interval): boolean {
  return a.hi !== null && b.lo !== null && compareDecimal(a.hi, b.lo) === 0 && a.hiInclusive !== b.loInclusive;
}

/** The interval from `a`'s start to `b`'s end (callers check they are adjacent). */
export function join(a: Interval, b: Interval): Interval {
  return { lo: a.lo, loInclusive: a.loInclusive, hi: b.hi, hiInclusive: b.hiInclusive };
}

/**
 * An interval in words: `= 100` for a point, `(100, 250]`, `[0, 100)`, `(1000, inf)`.
 *
 * @example
 * formatInterval({ lo: '100', loInclusive: false, hi: '250', hiInclusive: true }) // '(100, 250]'
 */
export function formatInterval(i: Interval): string {
  if (isPoint(i)) return `= ${i.lo}`;
  return `${i.loInclusive ? '[' : '('}${i.lo ?? '-inf'}, ${i.hi ?? 'inf'}${i.hiInclusive ? ']' : ')'}`;
}

/** Whether the interval is one value. */
export function isPoint(i: Interval): boolean {
  return i.lo !== null && i.hi !== null && compareDecimal(i.lo, i.hi) === 0;
}
