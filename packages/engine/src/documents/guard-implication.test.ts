// guardImplies: sound on the shapes compiled sheets and hand-written Colang take; printGuard's words.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FALSE, TRUE } from '../conditions/tri.ts';
import { evaluateExpr } from '../rulebook/expr.ts';
import type { ComparisonOp, Expr } from '../rulebook/types.ts';
import { guardImplies, printGuard } from './guard-implication.ts';

const x: Expr = { context: 'x' };
const y: Expr = { context: 'y' };
const over = (n: string, op: ComparisonOp = 'gt'): Expr => ({ arg: 'amount', op, value: { decimal: n } });

describe('guardImplies', () => {
  it.each<[string, Expr, Expr, boolean]>([
    ['x and y => x', { all: [x, y] }, x, true],
    ['x => x and y', x, { all: [x, y] }, false],
    ['x => x or y', x, { any: [x, y] }, true],
    ['x or y => x', { any: [x, y] }, x, false],
    ['not(x or y) => not x', { not: { any: [x, y] } }, { not: x }, true],
    ['amount > 500 => amount > 200', over('500'), over('200'), true],
    ['amount > 200 => amount > 500', over('200'), over('500'), false],
    ['amount >= 200 => amount > 200', over('200', 'gte'), over('200'), false],
    ['amount > 200 => amount >= 200', over('200'), over('200', 'gte'), true],
    ['amount == 7 => amount <= 7', over('7', 'eq'), over('7', 'lte'), true],
    ['amount < 7 => amount <= 7.0', over('7', 'lt'), over('7.0', 'lte'), true],
    ['not amount > 500 or x => not amount > 200 or x', { any: [{ not: over('500') }, x] }, { any: [{ not: over('200') }, x] }, false],
    ['not amount > 200 or x => not amount > 500 or x', { any: [{ not: over('200') }, x] }, { any: [{ not: over('500') }, x] }, true],
    ['other argument', over('500'), { arg: 'total', op: 'gt', value: { decimal: '200' } }, false],
  ])('%s: %s', (_name, a, b, expected) => {
    expect(guardImplies(a, b)).toBe(expected);
  });

  it('is sound: where it says a implies b, b holds wherever a does, on generated guards and calls', () => {
    const leaf = fc.oneof(
      fc.constantFrom<Expr>(x, y),
      fc
        .record({ op: fc.constantFrom<ComparisonOp>('gt', 'gte', 'lt', 'lte', 'eq'), n: fc.integer({ min: 0, max: 4 }) })
        .map(({ op, n }) => over(String(n), op)),
    );
    const expr: fc.Arbitrary<Expr> = fc.letrec<{ e: Expr }>((tie) => ({
      e: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        tie('e').map((e) => ({ not: e })),
        fc.array(tie('e'), { minLength: 2, maxLength: 3 }).map((all) => ({ all })),
        fc.array(tie('e'), { minLength: 2, maxLength: 3 }).map((any) => ({ any })),
      ),
    })).e;
    const call = fc.record({
      amount: fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }),
      x: fc.option(fc.boolean(), { nil: undefined }),
      y: fc.option(fc.boolean(), { nil: undefined }),
    });
    fc.assert(
      fc.property(expr, expr, fc.array(call, { minLength: 1, maxLength: 10 }), (a, b, calls) => {
        if (!guardImplies(a, b)) return;
        for (const c of calls) {
          const args = c.amount === undefined ? {} : { amount: c.amount };
          const contexts = { ...(c.x === undefined ? {} : { x: c.x }), ...(c.y === undefined ? {} : { y: c.y }) };
          if (evaluateExpr(a, args, contexts) === TRUE) expect(evaluateExpr(b, args, contexts)).toBe(TRUE);
          if (evaluateExpr(b, args, contexts) === FALSE) expect(evaluateExpr(a, args, contexts)).toBe(FALSE);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe('printGuard', () => {
  it('writes guards in Colang words', () => {
    expect(
      printGuard({ any: [{ not: { all: [over('200'), { arg: 'currency', op: 'eq', value: { string: 'USD' } }] } }, { all: [x, y] }] }),
    ).toBe('not (amount > 200 and currency == "USD") or $x and $y');
    expect(printGuard({ all: [{ any: [x, y] }, { arg: 'vip', op: 'eq', value: { boolean: true } }] })).toBe('($x or $y) and vip == true');
  });
});

describe('guardImplies on big guards', () => {
  it('answers for guards of 4095 contexts each (looked up by key: the first took 8 s when scanned)', () => {
    const contexts = Array.from({ length: 4095 }, (_, i): Expr => ({ context: `c${i}` }));
    const more: Expr = { all: [...contexts, { context: 'zz' }] };
    const fewer: Expr = { all: contexts };
    expect(guardImplies(more, fewer)).toBe(true);
    expect(guardImplies(fewer, more)).toBe(false);
    expect(guardImplies({ any: contexts }, { any: [...contexts, { context: 'zz' }] })).toBe(true);
    expect(guardImplies({ any: [...contexts, { context: 'zz' }] }, { any: contexts })).toBe(false);
  });
});
