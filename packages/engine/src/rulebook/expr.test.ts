// Guard expressions: Kleene truth tables, argument comparisons, and the unmet contexts a refusal names.
import { describe, expect, it } from 'vitest';
import { FALSE, TRUE, type Tri, UNKNOWN } from '../conditions/tri.ts';
import { evaluateExpr, unmetContexts } from './expr.ts';
import type { Expr } from './types.ts';

// A context the host set to true, false, or not at all: each leaf's truth value on demand.
const leaf: Record<Tri, Expr> = { [TRUE]: { context: 't' }, [FALSE]: { context: 'f' }, [UNKNOWN]: { context: 'u' } };
const contexts = { t: true, f: false };
const values: Tri[] = [TRUE, FALSE, UNKNOWN];

describe('evaluateExpr: Kleene logic', () => {
  it.each([
    [TRUE, FALSE],
    [FALSE, TRUE],
    [UNKNOWN, UNKNOWN],
  ])('not %s is %s', (a, expected) => {
    expect(evaluateExpr({ not: leaf[a as Tri] }, {}, contexts)).toBe(expected);
  });

  const and = (a: Tri, b: Tri): Tri => (a === FALSE || b === FALSE ? FALSE : a === UNKNOWN || b === UNKNOWN ? UNKNOWN : TRUE);
  const or = (a: Tri, b: Tri): Tri => (a === TRUE || b === TRUE ? TRUE : a === UNKNOWN || b === UNKNOWN ? UNKNOWN : FALSE);
  const pairs = values.flatMap((a) => values.map((b) => [a, b] as const));

  it.each(pairs)('all [%s, %s] follows the table', (a, b) => {
    expect(evaluateExpr({ all: [leaf[a], leaf[b]] }, {}, contexts)).toBe(and(a, b));
  });

  it.each(pairs)('any [%s, %s] follows the table', (a, b) => {
    expect(evaluateExpr({ any: [leaf[a], leaf[b]] }, {}, contexts)).toBe(or(a, b));
  });

  it('gives the identities for empty lists', () => {
    expect(evaluateExpr({ all: [] }, {}, {})).toBe(TRUE);
    expect(evaluateExpr({ any: [] }, {}, {})).toBe(FALSE);
  });

  it('reads only booleans the host set, and only its own members', () => {
    expect(evaluateExpr({ context: 'a' }, {}, { a: 'true' })).toBe(UNKNOWN);
    expect(evaluateExpr({ context: 'a' }, {}, { a: 1 })).toBe(UNKNOWN);
    expect(evaluateExpr({ context: 'a' }, {}, { a: null })).toBe(UNKNOWN);
    expect(evaluateExpr({ context: 'toString' }, {}, {})).toBe(UNKNOWN);
    expect(evaluateExpr({ context: 'a' }, {}, Object.create({ a: true }))).toBe(UNKNOWN);
  });
});

describe('evaluateExpr: arguments', () => {
  const over = (value: string): Expr => ({ arg: 'amount', op: 'gt', value: { decimal: value } });

  it.each([
    ['gt', 201, TRUE],
    ['gt', 200, FALSE],
    ['gt', '200.01', TRUE],
    ['gte', '200.00', TRUE],
    ['gte', 199, FALSE],
    ['lt', 199, TRUE],
    ['lt', 200, FALSE],
    ['lte', '200.0', TRUE],
    ['lte', 201, FALSE],
    ['eq', '200.000', TRUE],
    ['eq', 201, FALSE],
  ] as const)('amount %s 200 with %j is %s', (op, amount, expected) => {
    expect(evaluateExpr({ arg: 'amount', op, value: { decimal: '200' } }, { amount }, {})).toBe(expected);
  });

  it.each([
    ['missing', {}],
    ['a float', { amount: 200.5 }],
    ['an exponent string', { amount: '2e3' }],
    ['a boolean', { amount: true }],
    ['null', { amount: null }],
    ['an object', { amount: { value: 300 } }],
  ])('is unknown for an amount that is %s', (_name, args) => {
    expect(evaluateExpr(over('200'), args, {})).toBe(UNKNOWN);
  });

  it('is unknown when the arguments are not an object or the member is inherited', () => {
    expect(evaluateExpr(over('200'), null, {})).toBe(UNKNOWN);
    expect(evaluateExpr(over('200'), [300], {})).toBe(UNKNOWN);
    expect(evaluateExpr(over('200'), Object.create({ amount: 300 }), {})).toBe(UNKNOWN);
  });

  it('compares strings and booleans with eq only, type-strictly', () => {
    const country: Expr = { arg: 'country', op: 'eq', value: { string: 'DE' } };
    expect(evaluateExpr(country, { country: 'DE' }, {})).toBe(TRUE);
    expect(evaluateExpr(country, { country: 'FR' }, {})).toBe(FALSE);
    expect(evaluateExpr(country, { country: 1 }, {})).toBe(UNKNOWN);
    expect(evaluateExpr({ arg: 'country', op: 'gt', value: { string: 'DE' } }, { country: 'FR' }, {})).toBe(UNKNOWN);
    const gift: Expr = { arg: 'gift', op: 'eq', value: { boolean: true } };
    expect(evaluateExpr(gift, { gift: true }, {})).toBe(TRUE);
    expect(evaluateExpr(gift, { gift: false }, {})).toBe(FALSE);
    expect(evaluateExpr(gift, { gift: 'true' }, {})).toBe(UNKNOWN);
  });

  it('never reads a host context for an argument comparison', () => {
    expect(evaluateExpr(over('200'), {}, { amount: 300, amount_over_200: true })).toBe(UNKNOWN);
    expect(evaluateExpr(over('200'), { amount: 100 }, { amount_over_200: true })).toBe(FALSE);
  });

  it('decides the refund guard', () => {
    const guard: Expr = { any: [{ not: over('200') }, { context: 'supervisor_approved' }] };
    expect(evaluateExpr(guard, { amount: 200 }, {})).toBe(TRUE);
    expect(evaluateExpr(guard, { amount: 201 }, {})).toBe(UNKNOWN);
    expect(evaluateExpr(guard, { amount: 201 }, { supervisor_approved: false })).toBe(FALSE);
    expect(evaluateExpr(guard, { amount: 201 }, { supervisor_approved: true })).toBe(TRUE);
    expect(evaluateExpr(guard, {}, {})).toBe(UNKNOWN);
  });
});

describe('unmetContexts', () => {
  it('names each context whose value keeps the guard from holding', () => {
    const guard: Expr = { any: [{ not: { arg: 'amount', op: 'gt', value: { decimal: '200' } } }, { context: 'supervisor_approved' }] };
    expect(unmetContexts(guard, {})).toEqual(['supervisor_approved']);
    expect(unmetContexts(guard, { supervisor_approved: true })).toEqual([]);
    expect(unmetContexts({ all: [{ context: 'a' }, { not: { context: 'b' } }, { context: 'a' }] }, { a: false, b: true })).toEqual([
      'a',
      'b',
    ]);
    expect(unmetContexts({ not: { context: 'b' } }, {})).toEqual(['b']);
    expect(unmetContexts({ not: { context: 'b' } }, { b: false })).toEqual([]);
  });
});
