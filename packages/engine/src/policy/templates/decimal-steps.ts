// Exact amounts next to a limit, for example calls on every side of a threshold (decimal.js, never floats).
import Decimal from 'decimal.js';

// Amounts have at most 18 digits before and after the point: 40 significant digits keep every sum exact.
const Exact = Decimal.clone({ precision: 40 });
const STEPS = ['0.01', '0.000001', '0.000000000000000001'];

/**
 * The amount a small step above `x`, strictly below `limit` when one is given; undefined when no
 * amount with at most 18 fraction digits lies strictly between them.
 *
 * @example
 * stepAbove('100') // '100.01'
 * stepAbove('100', '100.005') // '100.000001'
 */
export function stepAbove(x: string, limit?: string): string | undefined {
  for (const step of STEPS) {
    const next = new Exact(x).plus(step);
    if (limit === undefined || next.lessThan(limit)) return next.toFixed();
  }
  return undefined;
}

/**
 * The amount a small step below `x`, never negative; undefined for zero.
 *
 * @example
 * stepBelow('100') // '99.99'
 * stepBelow('0') // undefined
 */
export function stepBelow(x: string): string | undefined {
  for (const step of STEPS) {
    const next = new Exact(x).minus(step);
    if (!next.isNegative()) return next.toFixed();
  }
  return undefined;
}

/**
 * The amount 0.01 above `x`: over any limit (limits are at most 10^15, so it stays a valid amount).
 *
 * @example
 * justOver('1000') // '1000.01'
 */
export function justOver(x: string): string {
  return new Exact(x).plus(STEPS[0] as string).toFixed();
}
