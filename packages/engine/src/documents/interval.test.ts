// Decimal edges: the effective bound on each side, which of two admits more, and containment, exactly.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Bounds, satisfiesBounds } from '../conditions/bounds.ts';
import { boundsWithin, compareLower, compareUpper, describeEdgeChange, lowerEdge, upperEdge } from './interval.ts';

describe('edges', () => {
  it('pick the tighter bound of each side', () => {
    expect(lowerEdge({ gt: '10', gte: '10' })).toEqual({ member: 'gt', value: '10', inclusive: false });
    expect(lowerEdge({ gt: '10', gte: '10.5' })).toEqual({ member: 'gte', value: '10.5', inclusive: true });
    expect(upperEdge({ lt: '100', lte: '100.00' })).toEqual({ member: 'lt', value: '100', inclusive: false });
    expect(upperEdge({ lt: '100', lte: '99.99' })).toEqual({ member: 'lte', value: '99.99', inclusive: true });
    expect(lowerEdge({ lte: '1' })).toBeUndefined();
  });

  it('compare exactly, never through floats', () => {
    const big = (v: string) => ({ member: 'lte' as const, value: v, inclusive: true });
    expect(compareUpper(big('9007199254740993'), big('9007199254740992'))).toBe('tighter');
    expect(compareUpper(big('0.30000000000000001'), big('0.3'))).toBe('tighter');
    expect(compareUpper(big('100'), big('100.000'))).toBe('same');
    expect(compareLower(undefined, undefined)).toBe('same');
    expect(compareLower({ member: 'gt', value: '5', inclusive: false }, undefined)).toBe('looser');
  });

  it("describe a change in the document's words", () => {
    expect(describeEdgeChange(upperEdge({ lte: '100' }), upperEdge({ lte: '250' }))).toBe('lte 100 -> 250');
    expect(describeEdgeChange(upperEdge({ lte: '100' }), upperEdge({ lt: '250' }))).toBe('lte 100 -> lt 250');
    expect(describeEdgeChange(upperEdge({ lte: '100' }), undefined)).toBe('lte 100 removed');
    expect(describeEdgeChange(undefined, lowerEdge({ gt: '5' }))).toBe('gt 5 added');
  });
});

describe('boundsWithin', () => {
  const bounds = fc
    .record({
      gt: fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined }),
      gte: fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined }),
      lt: fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined }),
      lte: fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined }),
    })
    .map((r) => {
      const b: Bounds = {};
      for (const [k, v] of Object.entries(r)) if (v !== undefined) b[k as keyof Bounds] = String(v);
      return b;
    });

  it('agrees with checking every half-step from -1 to 21', () => {
    fc.assert(
      fc.property(bounds, bounds, (inner, outer) => {
        const values = Array.from({ length: 45 }, (_, i) => String((i - 2) / 2));
        const admitted = values.filter((v) => satisfiesBounds(v, inner));
        // Only where inner admits at least one probe value does "within" have a witness to check against.
        if (admitted.length > 0 && boundsWithin(inner, outer)) for (const v of admitted) expect(satisfiesBounds(v, outer)).toBe(true);
        if (admitted.some((v) => !satisfiesBounds(v, outer))) expect(boundsWithin(inner, outer)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });
});
