// One argument condition: structural validation (members, pointer, for/*, one operator family) and
// three-valued evaluation over paths with * (docs/policy.md, "Argument conditions").
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../source/diagnostic.ts';
import { CompiledCondition, type Condition, familyOf, MAX_POINTER_LENGTH, OPERATOR_FAMILIES, validateCondition } from './condition.ts';
import { FALSE, TRUE, type Tri, triName, UNKNOWN } from './tri.ts';

const AT = '/rules/0/when/0';

function check(condition: unknown, path = AT): { sound: boolean; problems: [string, string | undefined][] } {
  const problems: Diagnostic[] = [];
  const sound = validateCondition(condition, path, problems);
  return { sound, problems: problems.map((p) => [p.code, p.path]) };
}

function problemsOf(condition: unknown): [string, string | undefined][] {
  return check(condition).problems;
}

/** Validates, then compiles and evaluates; names the result so failures read well. */
function evaluate(condition: Condition, args: unknown): 'true' | 'false' | 'unknown' {
  expect(problemsOf(condition)).toEqual([]);
  return triName(new CompiledCondition(condition).evaluate(args));
}

describe('validateCondition: structure', () => {
  it('accepts sound conditions of every family and says so', () => {
    expect(check({ path: '/environment', eq: 'production' })).toEqual({ sound: true, problems: [] });
    expect(check({ path: '/environment', in: ['dev', 'staging'] }).sound).toBe(true);
    expect(check({ path: '/lines/*/sku', for: 'all', starts_with: ['SKU-'] }).sound).toBe(true);
    expect(check({ path: '/lines/*/qty', for: 'any', gt: '0', lte: '500' }).sound).toBe(true);
    expect(check({ path: '/a~1b/~0c', eq: null }).sound).toBe(true);
  });

  it('keeps problems pushed before it and reports soundness by its own problems only', () => {
    const problems: Diagnostic[] = [{ code: 'UNKNOWN_MEMBER', severity: 'error', message: 'x', path: '/x' }];
    expect(validateCondition({ path: '/a', eq: 1 }, AT, problems)).toBe(true);
    expect(problems).toHaveLength(1);
  });

  it.each([
    ['null', null],
    ['a string', '/environment'],
    ['an array', [{ path: '/a', eq: 1 }]],
    ['a number', 3],
  ])('refuses %s with INVALID_TYPE at the condition', (_name, condition) => {
    expect(check(condition)).toEqual({ sound: false, problems: [['INVALID_TYPE', AT]] });
  });

  it('refuses unknown members with UNKNOWN_MEMBER at their escaped path', () => {
    expect(problemsOf({ path: '/a', eq: 1, op: 'eq' })).toEqual([['UNKNOWN_MEMBER', `${AT}/op`]]);
    expect(problemsOf({ path: '/a', eq: 1, 'x/y': 1, 'm~n': 2 })).toEqual([
      ['UNKNOWN_MEMBER', `${AT}/x~1y`],
      ['UNKNOWN_MEMBER', `${AT}/m~0n`],
    ]);
    expect(problemsOf({ path: '/a', eq: 1, regex: '.*', currency: 'USD' }).map(([code]) => code)).toEqual([
      'UNKNOWN_MEMBER',
      'UNKNOWN_MEMBER',
    ]);
  });

  it('refuses a missing path with MISSING_MEMBER at the condition', () => {
    expect(problemsOf({ eq: 'production' })).toEqual([['MISSING_MEMBER', AT]]);
  });

  it('refuses a path that is not a string with INVALID_TYPE at /path', () => {
    expect(problemsOf({ path: ['environment'], eq: 'production' })).toEqual([['INVALID_TYPE', `${AT}/path`]]);
    expect(problemsOf({ path: null, eq: 'production' })).toEqual([['INVALID_TYPE', `${AT}/path`]]);
  });

  it.each([
    ['the whole document ""', ''],
    ['no leading slash', 'environment'],
    ['an invalid escape', '/a~2'],
    ['a trailing ~', '/a~'],
    ['a URI fragment', '#/environment'],
    [`more than ${MAX_POINTER_LENGTH} characters`, `/${'a'.repeat(MAX_POINTER_LENGTH)}`],
  ])('refuses %s with INVALID_POINTER at /path', (_name, path) => {
    expect(problemsOf({ path, eq: 'production' })).toEqual([['INVALID_POINTER', `${AT}/path`]]);
  });

  it(`accepts a pointer of exactly ${MAX_POINTER_LENGTH} characters`, () => {
    expect(problemsOf({ path: `/${'a'.repeat(MAX_POINTER_LENGTH - 1)}`, eq: 1 })).toEqual([]);
  });
});

describe('validateCondition: for and *', () => {
  it('refuses "for" on a path without * with FOR_WITHOUT_WILDCARD at /for', () => {
    expect(problemsOf({ path: '/environment', for: 'all', eq: 'production' })).toEqual([['FOR_WITHOUT_WILDCARD', `${AT}/for`]]);
    expect(problemsOf({ path: '/lines/0/qty', for: 'any', gt: '0' })).toEqual([['FOR_WITHOUT_WILDCARD', `${AT}/for`]]);
  });

  it('treats an escaped or embedded * as a member name, not a wildcard', () => {
    expect(problemsOf({ path: '/a*/b', for: 'all', eq: 1 })).toEqual([['FOR_WITHOUT_WILDCARD', `${AT}/for`]]);
    expect(problemsOf({ path: '/a*/b', eq: 1 })).toEqual([]);
  });

  it('refuses a path with * and no "for" with WILDCARD_WITHOUT_FOR at the condition', () => {
    expect(problemsOf({ path: '/lines/*/qty', gt: '0' })).toEqual([['WILDCARD_WITHOUT_FOR', AT]]);
    expect(problemsOf({ path: '/*', eq: 1 })).toEqual([['WILDCARD_WITHOUT_FOR', AT]]);
  });

  it.each(['some', 'every', 'ALL', '', true, null, 1])('refuses for: %j with INVALID_VALUE at /for', (value) => {
    expect(problemsOf({ path: '/lines/*/qty', for: value, gt: '0' })).toEqual([['INVALID_VALUE', `${AT}/for`]]);
  });
});

describe('validateCondition: operators', () => {
  it('refuses a condition without an operator with MISSING_OPERATOR at the condition', () => {
    expect(problemsOf({ path: '/environment' })).toEqual([['MISSING_OPERATOR', AT]]);
  });

  it.each([
    [{ path: '/a', eq: 5, gt: '1' }],
    [{ path: '/a', eq: 'x', in: ['x'] }],
    [{ path: '/a', in: ['x'], starts_with: ['x'] }],
    [{ path: '/a', starts_with: ['x'], lte: '5' }],
  ])('refuses mixed families with MULTIPLE_OPERATORS at the condition: %j', (condition) => {
    expect(problemsOf(condition)).toEqual([['MULTIPLE_OPERATORS', AT]]);
  });

  it('treats several bounds as one family', () => {
    expect(problemsOf({ path: '/a', gt: '1', gte: '2', lt: '10', lte: '9' })).toEqual([]);
  });

  it('delegates operand checks to the family, under the condition path', () => {
    expect(problemsOf({ path: '/a', eq: 1.5 })).toEqual([['INEXACT_NUMBER', `${AT}/eq`]]);
    expect(problemsOf({ path: '/a', eq: {} })).toEqual([['INVALID_OPERAND', `${AT}/eq`]]);
    expect(problemsOf({ path: '/a', in: [] })).toEqual([['EMPTY_LIST', `${AT}/in`]]);
    expect(problemsOf({ path: '/a', in: ['x', 'x'] })).toEqual([['DUPLICATE_VALUE', `${AT}/in/1`]]);
    expect(problemsOf({ path: '/a', starts_with: [''] })).toEqual([['INVALID_OPERAND', `${AT}/starts_with/0`]]);
    expect(problemsOf({ path: '/a', gt: '1e3' })).toEqual([['INVALID_DECIMAL', `${AT}/gt`]]);
    expect(problemsOf({ path: '/a', gt: '-5', lt: '-10' })).toEqual([['CONTRADICTORY_BOUNDS', AT]]);
    expect(problemsOf({ path: '/a', gte: '-5', lte: '-5' })).toEqual([]);
  });

  it('collects every problem of a bad condition', () => {
    expect(check({ path: 'lines', for: 'some', eq: 0.5, extra: 1 }, '/rules/4/when/2')).toEqual({
      sound: false,
      problems: [
        ['UNKNOWN_MEMBER', '/rules/4/when/2/extra'],
        ['INVALID_POINTER', '/rules/4/when/2/path'],
        ['INVALID_VALUE', '/rules/4/when/2/for'],
        ['INEXACT_NUMBER', '/rules/4/when/2/eq'],
      ],
    });
  });

  it('familyOf names the family a condition uses', () => {
    expect(OPERATOR_FAMILIES.map((f) => f.name)).toEqual(['eq', 'in', 'starts_with', 'bounds']);
    expect(familyOf({ path: '/a', eq: null }).name).toBe('eq');
    expect(familyOf({ path: '/a', in: [1] }).name).toBe('in');
    expect(familyOf({ path: '/a', starts_with: ['x'] }).name).toBe('starts_with');
    expect(familyOf({ path: '/a', lte: '1' }).name).toBe('bounds');
  });
});

describe('CompiledCondition.evaluate without *', () => {
  const prod: Condition = { path: '/environment', eq: 'production' };

  it('is true, false or unknown from the value at the path', () => {
    expect(evaluate(prod, { environment: 'production' })).toBe('true');
    expect(evaluate(prod, { environment: 'staging' })).toBe('false');
  });

  it('is unknown when the value is missing or of another type', () => {
    expect(evaluate(prod, {})).toBe('unknown');
    expect(evaluate(prod, { environment: 5 })).toBe('unknown');
    expect(evaluate(prod, { environment: null })).toBe('unknown');
    expect(evaluate(prod, null)).toBe('unknown');
    expect(evaluate(prod, 'production')).toBe('unknown');
    expect(evaluate(prod, ['production'])).toBe('unknown');
  });

  it('does not read inherited members', () => {
    expect(evaluate({ path: '/constructor', eq: 'x' }, {})).toBe('unknown');
    expect(evaluate({ path: '/toString', starts_with: ['f'] }, {})).toBe('unknown');
  });

  it('follows array indexes and escaped member names', () => {
    expect(evaluate({ path: '/lines/1/qty', gt: '10' }, { lines: [{ qty: 1 }, { qty: 11 }] })).toBe('true');
    expect(evaluate({ path: '/lines/01/qty', gt: '10' }, { lines: [{ qty: 1 }, { qty: 11 }] })).toBe('unknown');
    expect(evaluate({ path: '/a~1b', eq: 1 }, { 'a/b': 1, a: { b: 2 } })).toBe('true');
    expect(evaluate({ path: '/a/b', eq: 1 }, { 'a/b': 1, a: { b: 2 } })).toBe('false');
    expect(evaluate({ path: '/m~0n', eq: 1 }, { 'm~n': 1 })).toBe('true');
    expect(evaluate({ path: '/~01', eq: 1 }, { '~1': 1, '/': 2 })).toBe('true');
  });

  it('is unknown for malformed decimals', () => {
    const c: Condition = { path: '/qty', gt: '0' };
    expect(evaluate(c, { qty: '1e3' })).toBe('unknown');
    expect(evaluate(c, { qty: 12.5 })).toBe('unknown');
    expect(evaluate(c, { qty: '12.5' })).toBe('true');
  });
});

describe('CompiledCondition.evaluate with *', () => {
  const all: Condition = { path: '/lines/*/qty', for: 'all', gt: '0', lte: '500' };
  const any: Condition = { path: '/lines/*/qty', for: 'any', gt: '0', lte: '500' };
  const lines = (...qty: unknown[]) => ({ lines: qty.map((q) => (q === undefined ? { sku: 'SKU-1' } : { qty: q })) });

  it.each([
    // [element results as qty values, for:all, for:any]; 1 is true, 0 is false, "x" is unknown.
    [[1], 'true', 'true'],
    [[1, 1, 1], 'true', 'true'],
    [[0], 'false', 'false'],
    [[0, 0], 'false', 'false'],
    [['x'], 'unknown', 'unknown'],
    [[1, 0], 'false', 'true'],
    [[0, 1], 'false', 'true'],
    [[1, 'x'], 'unknown', 'true'],
    [['x', 1], 'unknown', 'true'],
    [[0, 'x'], 'false', 'unknown'],
    [['x', 0], 'false', 'unknown'],
    [[1, 0, 'x'], 'false', 'true'],
    [['x', 'x', 0, 1], 'false', 'true'],
  ])('elements %j: all is %s, any is %s', (qty, expectedAll, expectedAny) => {
    const args = lines(...qty);
    expect(evaluate(all, args)).toBe(expectedAll);
    expect(evaluate(any, args)).toBe(expectedAny);
  });

  it('is unknown for an empty array, for both all and any', () => {
    expect(evaluate(all, { lines: [] })).toBe('unknown');
    expect(evaluate(any, { lines: [] })).toBe('unknown');
  });

  it('is unknown when the array is missing or not an array', () => {
    for (const args of [{}, { lines: null }, { lines: 'a' }, { lines: 5 }, null, []]) {
      expect(evaluate(all, args)).toBe('unknown');
      expect(evaluate(any, args)).toBe('unknown');
    }
  });

  it('counts an element missing its member as unknown, unless another is false (all) or true (any)', () => {
    expect(evaluate(all, lines(1, undefined, 1))).toBe('unknown');
    expect(evaluate(all, lines(1, undefined, 501))).toBe('false');
    expect(evaluate(any, lines(0, undefined))).toBe('unknown');
    expect(evaluate(any, lines(0, undefined, 5))).toBe('true');
    expect(evaluate(all, { lines: [{ qty: 1 }, null, 'x', [1]] })).toBe('unknown');
  });

  it('applied to an object, * names the member "*"', () => {
    expect(evaluate(all, { lines: { '*': { qty: 5 } } })).toBe('true');
    expect(evaluate(all, { lines: { '*': { qty: 501 } } })).toBe('false');
    expect(evaluate(any, { lines: { a: { qty: 5 }, b: { qty: 6 } } })).toBe('unknown');
  });

  it('walks nested wildcards', () => {
    const nested: Condition = { path: '/orders/*/lines/*/qty', for: 'all', gt: '0' };
    const some: Condition = { path: '/orders/*/lines/*/qty', for: 'any', gt: '100' };
    const orders = { orders: [{ lines: [{ qty: 1 }, { qty: 2 }] }, { lines: [{ qty: 3 }] }] };
    expect(evaluate(nested, orders)).toBe('true');
    expect(evaluate(some, orders)).toBe('false');
    expect(evaluate(nested, { orders: [{ lines: [{ qty: 1 }] }, { lines: [{ qty: 0 }] }] })).toBe('false');
    expect(evaluate(some, { orders: [{ lines: [{ qty: 1 }] }, { lines: [{ qty: 101 }] }] })).toBe('true');
    // A line without qty, or an order without lines, is unknown.
    expect(evaluate(nested, { orders: [{ lines: [{ qty: 1 }] }, { lines: [{ sku: 'x' }] }] })).toBe('unknown');
    expect(evaluate(nested, { orders: [{ lines: [{ qty: 1 }] }, {}] })).toBe('unknown');
    expect(evaluate(nested, { orders: [{ lines: [{ qty: 1 }] }, { lines: [{ sku: 'x' }, { qty: -1 }] }] })).toBe('false');
    // An order with no lines selects nothing there; the other orders decide.
    expect(evaluate(nested, { orders: [{ lines: [] }, { lines: [{ qty: 1 }] }] })).toBe('true');
    expect(evaluate(nested, { orders: [{ lines: [] }, { lines: [] }] })).toBe('unknown');
  });

  it('reads members whose names contain / through ~1, under and over *', () => {
    const c: Condition = { path: '/items/*/unit~1price', for: 'all', lte: '10' };
    expect(evaluate(c, { items: [{ 'unit/price': '9.99' }, { 'unit/price': 10 }] })).toBe('true');
    expect(evaluate(c, { items: [{ 'unit/price': '9.99' }, { unit: { price: 1 } }] })).toBe('unknown');
    const top: Condition = { path: '/a~1b/*', for: 'any', eq: 'x' };
    expect(evaluate(top, { 'a/b': ['y', 'x'] })).toBe('true');
  });

  it('selects the elements themselves with a final *', () => {
    const tags: Condition = { path: '/tags/*', for: 'all', starts_with: ['team-'] };
    expect(evaluate(tags, { tags: ['team-a', 'team-b'] })).toBe('true');
    expect(evaluate(tags, { tags: ['team-a', 'other'] })).toBe('false');
    expect(evaluate(tags, { tags: ['team-a', 7] })).toBe('unknown');
  });

  it('gives the same answer when evaluated again (counters reset)', () => {
    const compiled = new CompiledCondition(all);
    const results: Tri[] = [
      compiled.evaluate(lines(0)),
      compiled.evaluate(lines(1)),
      compiled.evaluate(lines('x')),
      compiled.evaluate(lines(1)),
    ];
    expect(results).toEqual([FALSE, TRUE, UNKNOWN, TRUE]);
  });

  it('keeps the condition it was compiled from', () => {
    expect(new CompiledCondition(all).source).toBe(all);
  });
});
