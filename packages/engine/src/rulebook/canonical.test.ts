// The canonical rulebook (docs/colang.md, "The IR"): normalised expressions, sorted flows, sorted-key JSON,
// the rulebook.ir.json layout, and the equivalence check that names the first difference.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalExpr, canonicalJson, canonicalRulebook, compareRulebooks, formatRulebook } from './canonical.ts';
import { type Expr, type Flow, RULEBOOK_FORMAT, type Rulebook } from './types.ts';

const ctx = (name: string): Expr => ({ context: name });
const gt = (arg: string, decimal: string): Expr => ({ arg, op: 'gt', value: { decimal } });

function book(...flows: Flow[]): Rulebook {
  return { format: RULEBOOK_FORMAT, flows };
}

describe('canonicalExpr', () => {
  it('leaves a context and a comparison as they are', () => {
    expect(canonicalExpr(ctx('x'))).toEqual(ctx('x'));
    expect(canonicalExpr(gt('amount', '200'))).toEqual(gt('amount', '200'));
  });

  it('removes double negation at any depth, keeping an odd one', () => {
    expect(canonicalExpr({ not: { not: ctx('x') } })).toEqual(ctx('x'));
    expect(canonicalExpr({ not: { not: { not: ctx('x') } } })).toEqual({ not: ctx('x') });
    expect(canonicalExpr({ all: [{ not: { not: ctx('b') } }, ctx('a')] })).toEqual({ all: [ctx('a'), ctx('b')] });
  });

  it('flattens all in all and any in any, never one into the other', () => {
    expect(canonicalExpr({ all: [ctx('c'), { all: [ctx('b'), { all: [ctx('a')] }] }] })).toEqual({ all: [ctx('a'), ctx('b'), ctx('c')] });
    expect(canonicalExpr({ any: [ctx('c'), { any: [ctx('a'), ctx('b')] }] })).toEqual({ any: [ctx('a'), ctx('b'), ctx('c')] });
    expect(canonicalExpr({ any: [ctx('c'), { all: [ctx('b'), ctx('a')] }] })).toEqual({ any: [{ all: [ctx('a'), ctx('b')] }, ctx('c')] });
  });

  it('flattens a part that becomes all only after its double negation is removed', () => {
    expect(canonicalExpr({ all: [ctx('c'), { not: { not: { all: [ctx('a'), ctx('b')] } } }] })).toEqual({
      all: [ctx('a'), ctx('b'), ctx('c')],
    });
  });

  it('sorts parts by their canonical JSON and drops duplicates, down to the one part left', () => {
    expect(canonicalExpr({ any: [ctx('b'), { not: ctx('a') }, ctx('a'), gt('x', '1')] })).toEqual({
      any: [{ arg: 'x', op: 'gt', value: { decimal: '1' } }, ctx('a'), ctx('b'), { not: ctx('a') }],
    });
    expect(canonicalExpr({ all: [ctx('x'), ctx('x'), { all: [ctx('x')] }] })).toEqual(ctx('x'));
    expect(canonicalExpr({ any: [{ all: [ctx('a'), ctx('b')] }, { all: [ctx('b'), ctx('a')] }] })).toEqual({ all: [ctx('a'), ctx('b')] });
  });

  it('treats comparisons of different values, ops or arguments as different parts', () => {
    expect(canonicalExpr({ all: [gt('a', '2'), gt('a', '1'), { arg: 'a', op: 'lt', value: { decimal: '1' } }, gt('a', '1')] })).toEqual({
      all: [gt('a', '1'), gt('a', '2'), { arg: 'a', op: 'lt', value: { decimal: '1' } }],
    });
  });

  it('is idempotent, and blind to the order of and/or parts (property)', () => {
    const leaf = fc.oneof(
      fc.constantFrom('a', 'b', 'c').map(ctx),
      fc.constantFrom('1', '2').map((d) => gt('amount', d)),
    );
    const { expr } = fc.letrec<{ expr: Expr }>((tie) => ({
      expr: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        tie('expr').map((e) => ({ not: e })),
        fc.array(tie('expr'), { minLength: 1, maxLength: 4 }).map((all) => ({ all })),
        fc.array(tie('expr'), { minLength: 1, maxLength: 4 }).map((any) => ({ any })),
      ),
    }));
    const reverse = (e: Expr): Expr => {
      if ('not' in e) return { not: reverse(e.not) };
      if ('all' in e) return { all: e.all.map(reverse).reverse() };
      if ('any' in e) return { any: e.any.map(reverse).reverse() };
      return e;
    };
    fc.assert(
      fc.property(expr, (e) => {
        const once = canonicalExpr(e);
        expect(canonicalExpr(once)).toEqual(once);
        expect(canonicalJson(canonicalExpr(reverse(e)))).toBe(canonicalJson(once));
      }),
      { numRuns: 1000 },
    );
  });

  it('agrees with the plain algorithm that serialises every part again at every level (property)', () => {
    // canonicalExpr builds each node's canonical JSON from its children's instead; this is the obvious
    // version it replaced, kept as the oracle.
    const plain = (e: Expr): Expr => {
      if ('not' in e) {
        const inner = plain(e.not);
        return 'not' in inner ? inner.not : { not: inner };
      }
      if ('all' in e || 'any' in e) {
        const key = 'all' in e ? 'all' : 'any';
        const flat = ('all' in e ? e.all : e.any).map(plain).flatMap((c) => (key in c ? ((c as Record<string, Expr[]>)[key] ?? []) : [c]));
        const unique = new Map(flat.map((c) => [canonicalJson(c), c]));
        const sorted = [...unique.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, c]) => c);
        if (sorted.length === 1) return sorted[0] as Expr;
        return key === 'all' ? { all: sorted } : { any: sorted };
      }
      return e;
    };
    const literal = fc.oneof(
      fc.constantFrom('1', '2.5', '-3').map((decimal) => ({ decimal })),
      fc.constantFrom('', 'a"b', 'é').map((string) => ({ string })),
      fc.boolean().map((boolean) => ({ boolean })),
    );
    const leaf = fc.oneof(
      fc.constantFrom('a', 'b', 'a_b').map(ctx),
      fc.record({ arg: fc.constantFrom('x', 'y'), op: fc.constantFrom('gt' as const, 'eq' as const), value: literal }),
    );
    const { expr } = fc.letrec<{ expr: Expr }>((tie) => ({
      expr: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        tie('expr').map((e) => ({ not: e })),
        fc.array(tie('expr'), { minLength: 1, maxLength: 4 }).map((all) => ({ all })),
        fc.array(tie('expr'), { minLength: 1, maxLength: 4 }).map((any) => ({ any })),
      ),
    }));
    fc.assert(
      fc.property(expr, (e) => {
        expect(canonicalJson(canonicalExpr(e))).toBe(canonicalJson(plain(e)));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('canonicalRulebook', () => {
  it('sorts flows by action, normalises each guard and stamps the format', () => {
    expect(
      canonicalRulebook([
        { action: 'zeta', allow_when: { not: { not: { all: [ctx('b'), ctx('a')] } } } },
        { action: 'Alpha', refuse: true },
        { action: 'alpha', allow_when: ctx('x') },
      ]),
    ).toEqual({
      format: RULEBOOK_FORMAT,
      flows: [
        { action: 'Alpha', refuse: true },
        { action: 'alpha', allow_when: ctx('x') },
        { action: 'zeta', allow_when: { all: [ctx('a'), ctx('b')] } },
      ],
    });
  });

  it('keeps only action and refuse of a refusal flow', () => {
    const extra = { action: 'a', refuse: true, note: 'dropped' } as Flow;
    expect(canonicalRulebook([extra]).flows).toEqual([{ action: 'a', refuse: true }]);
  });

  it('is empty for no flows', () => {
    expect(canonicalRulebook([])).toEqual({ format: RULEBOOK_FORMAT, flows: [] });
  });
});

describe('canonicalJson', () => {
  it('sorts object keys at every level, keeps array order, and has no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: null, y: true }], c: 'x' } })).toBe('{"a":{"c":"x","d":[3,{"y":true,"z":null}]},"b":1}');
  });

  it('escapes strings and keys as JSON does', () => {
    expect(canonicalJson({ 'k"ey': 'a"b\n\u00e9' })).toBe('{"k\\"ey":"a\\"b\\né"}');
  });

  it('serialises a rulebook with flows before format, as the IR file does', () => {
    expect(canonicalJson(book({ action: 'a', refuse: true }))).toBe(
      '{"flows":[{"action":"a","refuse":true}],"format":"tollgate/rulebook@1"}',
    );
  });

  it('is the same for objects that differ only in key order', () => {
    expect(canonicalJson({ arg: 'x', op: 'gt', value: { decimal: '1' } })).toBe(
      canonicalJson({ value: { decimal: '1' }, op: 'gt', arg: 'x' }),
    );
  });
});

describe('formatRulebook', () => {
  it('writes rulebook.ir.json: sorted keys, two-space indent, a final newline', () => {
    expect(formatRulebook({ flows: [{ refuse: true, action: 'a' }], format: RULEBOOK_FORMAT } as Rulebook)).toBe(
      '{\n  "flows": [\n    {\n      "action": "a",\n      "refuse": true\n    }\n  ],\n  "format": "tollgate/rulebook@1"\n}\n',
    );
  });

  it('writes an empty rulebook', () => {
    expect(formatRulebook(book())).toBe('{\n  "flows": [],\n  "format": "tollgate/rulebook@1"\n}\n');
  });
});

describe('compareRulebooks', () => {
  const refund = (bound: string, approver = 'supervisor_approved'): Flow => ({
    action: 'refund_card',
    allow_when: { any: [ctx(approver), { not: gt('amount', bound) }] },
  });

  it('finds two rulebooks equal whatever their flows’ order and their guards’ form', () => {
    expect(
      compareRulebooks(book(refund('200'), { action: 'delete_customer', refuse: true }), {
        format: RULEBOOK_FORMAT,
        flows: [
          { action: 'delete_customer', refuse: true },
          { action: 'refund_card', allow_when: { any: [{ not: { not: { not: gt('amount', '200') } } }, ctx('supervisor_approved')] } },
        ],
      }),
    ).toEqual({ equal: true });
    expect(compareRulebooks(book(), book())).toEqual({ equal: true });
  });

  it('names a flow only one side has, the first by action', () => {
    expect(compareRulebooks(book(refund('200')), book(refund('200'), { action: 'delete_customer', refuse: true }))).toEqual({
      equal: false,
      path: '/flows/delete_customer',
      difference: 'only the second rulebook has a flow for delete_customer',
    });
    expect(compareRulebooks(book(refund('200'), { action: 'b', refuse: true }), book({ action: 'b', refuse: true }))).toEqual({
      equal: false,
      path: '/flows/refund_card',
      difference: 'only the first rulebook has a flow for refund_card',
    });
  });

  it('names the first differing value inside a guard, with its path', () => {
    expect(compareRulebooks(book(refund('200')), book(refund('250')))).toEqual({
      equal: false,
      path: '/flows/refund_card/allow_when/any/1/not/value/decimal',
      difference: 'refund_card: "200" differs from "250" at /flows/refund_card/allow_when/any/1/not/value/decimal',
    });
    expect(compareRulebooks(book(refund('200')), book(refund('200', 'manager_approved')))).toEqual({
      equal: false,
      path: '/flows/refund_card/allow_when/any/0/context',
      difference: 'refund_card: "supervisor_approved" differs from "manager_approved" at /flows/refund_card/allow_when/any/0/context',
    });
  });

  it('names a difference in the number of parts', () => {
    const two = book({ action: 'a', allow_when: { all: [ctx('x'), ctx('y')] } });
    const three = book({ action: 'a', allow_when: { all: [ctx('x'), ctx('y'), ctx('z')] } });
    expect(compareRulebooks(two, three)).toEqual({
      equal: false,
      path: '/flows/a/allow_when/all/2',
      difference: 'a: one has 2 items at /flows/a/allow_when/all, the other 3',
    });
  });

  it('names a refusal against a guard', () => {
    expect(compareRulebooks(book({ action: 'a', refuse: true }), book({ action: 'a', allow_when: ctx('x') }))).toEqual({
      equal: false,
      path: '/flows/a/allow_when',
      difference: 'a: nothing differs from {"context":"x"} at /flows/a/allow_when',
    });
  });

  it('is equal exactly when the canonical bytes are', () => {
    const flows = fc.array(
      fc.record({
        action: fc.constantFrom('a', 'b', 'c'),
        guard: fc.constantFrom<Expr | null>(null, ctx('x'), ctx('y'), { all: [ctx('x'), ctx('y')] }, { not: ctx('x') }),
      }),
      { maxLength: 3 },
    );
    const toBook = (items: { action: string; guard: Expr | null }[]): Rulebook => {
      const byAction = new Map<string, Flow>();
      for (const { action, guard } of items)
        byAction.set(action, guard === null ? { action, refuse: true } : { action, allow_when: guard });
      return book(...byAction.values());
    };
    fc.assert(
      fc.property(flows, flows, (x, y) => {
        const a = toBook(x);
        const b = toBook(y);
        const same = canonicalJson(canonicalRulebook(a.flows)) === canonicalJson(canonicalRulebook(b.flows));
        expect(compareRulebooks(a, b).equal).toBe(same);
      }),
      { numRuns: 1000 },
    );
  });
});
