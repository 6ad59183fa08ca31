// Checks: reading with codes and paths, and three-valued evaluation against arguments and earlier results.
import { describe, expect, it } from 'vitest';
import { FALSE, TRUE, UNKNOWN } from '../conditions/tri.ts';
import type { Diagnostic } from '../source/diagnostic.ts';
import { DecimalNumber } from '../source/yaml-text.ts';
import { CHECK_CODES, evaluateCheck, parseFrom, readCheck, readField, type SessionCall, validateChecks } from './check.ts';
import type { Check } from './types.ts';

function read(value: unknown, path = '/check/0'): { check: Check | undefined; problems: [string, string | undefined][] } {
  const problems: Diagnostic[] = [];
  const check = readCheck(value, path, problems);
  for (const p of problems) expect(p.severity).toBe('error');
  return { check, problems: problems.map((p) => [p.code, p.path]) };
}

describe('readCheck', () => {
  it('reads a value, a list, a decimal and a from operand', () => {
    expect(read({ field: 'country', in: ['DE', 'FR'] })).toEqual({
      check: { field: 'country', op: 'in', value: [{ string: 'DE' }, { string: 'FR' }] },
      problems: [],
    });
    expect(read({ field: 'amount', over: 10 }).check).toEqual({ field: 'amount', op: 'over', value: { decimal: '10' } });
    expect(read({ field: 'amount', under: new DecimalNumber('10.50') }).check).toEqual({
      field: 'amount',
      op: 'under',
      value: { decimal: '10.50' },
    });
    expect(read({ field: 'quantity', at_most: { from: 'check_stock.in_stock' } }).check).toEqual({
      field: 'quantity',
      op: 'at_most',
      from: { tool: 'check_stock', field: 'in_stock' },
    });
    expect(read({ field: 'gift', is: true }).check).toEqual({ field: 'gift', op: 'is', value: { boolean: true } });
    expect(read({ field: 'shipping.country', is_not: 'XX' }).check).toEqual({
      field: 'shipping.country',
      op: 'is_not',
      value: { string: 'XX' },
    });
    expect(read({ field: 'delta', at_least: -5 }).check?.value).toEqual({ decimal: '-5' });
    expect(read({ field: 'sku', not_in: { from: 'list_skus.blocked' } }).check?.from).toEqual({ tool: 'list_skus', field: 'blocked' });
    expect(read({ field: 'x', in: [1, new DecimalNumber('1.5'), true, 'a'] }).problems).toEqual([]);
  });

  it.each([
    ['a string', 'quantity at_most 3', [['CHECK_INVALID', '/check/0']]],
    ['a list', [{ field: 'x', is: 1 }], [['CHECK_INVALID', '/check/0']]],
    ['null', null, [['CHECK_INVALID', '/check/0']]],
    ['no field', { is: 1 }, [['CHECK_INVALID', '/check/0']]],
    ['a numeric field', { field: 3, is: 1 }, [['CHECK_INVALID', '/check/0/field']]],
    ['a field with a space', { field: 'a b', is: 1 }, [['CHECK_INVALID', '/check/0/field']]],
    ['a field with an empty segment', { field: 'a..b', is: 1 }, [['CHECK_INVALID', '/check/0/field']]],
    ['a JSON Pointer field', { field: '/amount', is: 1 }, [['CHECK_INVALID', '/check/0/field']]],
    ['an unknown member', { field: 'x', is: 1, eq: 2 }, [['CHECK_INVALID', '/check/0/eq']]],
    ['no comparison', { field: 'x' }, [['CHECK_COMPARISON', '/check/0']]],
    ['two comparisons', { field: 'x', over: 1, under: 5 }, [['CHECK_COMPARISON', '/check/0']]],
    ['over a string', { field: 'x', over: '10' }, [['CHECK_OPERAND', '/check/0/over']]],
    ['at_most a boolean', { field: 'x', at_most: true }, [['CHECK_OPERAND', '/check/0/at_most']]],
    ['under a list', { field: 'x', under: [1] }, [['CHECK_OPERAND', '/check/0/under']]],
    ['is a list', { field: 'x', is: ['a'] }, [['CHECK_OPERAND', '/check/0/is']]],
    ['in a scalar', { field: 'x', in: 'DE' }, [['CHECK_OPERAND', '/check/0/in']]],
    ['in an empty list', { field: 'x', not_in: [] }, [['CHECK_OPERAND', '/check/0/not_in']]],
    ['a list with a duplicate', { field: 'x', in: ['a', 'b', 'a'] }, [['CHECK_OPERAND', '/check/0/in/2']]],
    [
      'a list with equal decimals',
      { field: 'x', in: [new DecimalNumber('1.50'), new DecimalNumber('1.5')] },
      [['CHECK_OPERAND', '/check/0/in/1']],
    ],
    ['a list holding null', { field: 'x', in: ['a', null] }, [['CHECK_OPERAND', '/check/0/in/1']]],
    ['a list holding a list', { field: 'x', in: [['a']] }, [['CHECK_OPERAND', '/check/0/in/0']]],
    ['null', { field: 'x', is: null }, [['CHECK_OPERAND', '/check/0/is']]],
    ['a float', { field: 'x', over: 10.5 }, [['CHECK_OPERAND', '/check/0/over']]],
    ['an unsafe integer', { field: 'x', over: 2 ** 53 }, [['CHECK_OPERAND', '/check/0/over']]],
    [
      'a decimal of 19 fraction digits',
      { field: 'x', over: new DecimalNumber('0.1234567890123456789') },
      [['CHECK_OPERAND', '/check/0/over']],
    ],
    ['from without a field', { field: 'x', is: { from: 'check_stock' } }, [['CHECK_OPERAND', '/check/0/is/from']]],
    ['from with an empty tool', { field: 'x', is: { from: '.in_stock' } }, [['CHECK_OPERAND', '/check/0/is/from']]],
    ['from that is not a string', { field: 'x', is: { from: 3 } }, [['CHECK_OPERAND', '/check/0/is']]],
    ['an operand mapping beside from', { field: 'x', is: { from: 'a.b', or: 1 } }, [['CHECK_OPERAND', '/check/0/is']]],
    ['an operand mapping without from', { field: 'x', is: { value: 1 } }, [['CHECK_OPERAND', '/check/0/is']]],
  ])('refuses %s', (_name, value, expected) => {
    const result = read(value);
    expect(result.problems).toEqual(expected);
    expect(result.check).toBeUndefined();
  });

  it('lists every problem of one check', () => {
    expect(read({ field: 'a b', extra: 1, over: 'x' }).problems).toEqual([
      ['CHECK_INVALID', '/check/0/extra'],
      ['CHECK_INVALID', '/check/0/field'],
      ['CHECK_OPERAND', '/check/0/over'],
    ]);
  });

  it('says how to mend each problem', () => {
    const problems: Diagnostic[] = [];
    readCheck({ field: 'x', over: 'ten' }, '', problems);
    expect(problems[0]?.message).toContain('write a number such as 10 or 10.50');
    expect(Object.keys(CHECK_CODES)).toEqual(['CHECK_INVALID', 'CHECK_COMPARISON', 'CHECK_OPERAND']);
  });
});

describe('validateChecks', () => {
  it('reads a list of checks, every problem with its index', () => {
    const problems: Diagnostic[] = [];
    expect(validateChecks([{ field: 'a', is: 1 }], '/tools/0/checks', problems)).toEqual([
      { field: 'a', op: 'is', value: { decimal: '1' } },
    ]);
    expect(validateChecks([], '/c', problems)).toEqual([]);
    expect(validateChecks([{ field: 'a' }, { field: 'b', is: 1 }, 'x'], '/tools/0/checks', problems)).toBeUndefined();
    expect(problems.map((p) => [p.code, p.path])).toEqual([
      ['CHECK_COMPARISON', '/tools/0/checks/0'],
      ['CHECK_INVALID', '/tools/0/checks/2'],
    ]);
  });

  it('refuses a value that is not a list', () => {
    const problems: Diagnostic[] = [];
    expect(validateChecks({ field: 'a', is: 1 }, '/tools/0/checks', problems)).toBeUndefined();
    expect(problems.map((p) => [p.code, p.path])).toEqual([['CHECK_INVALID', '/tools/0/checks']]);
  });
});

describe('parseFrom and readField', () => {
  it('splits at the first dot and walks nested fields', () => {
    expect(parseFrom('check_stock.items.0.left')).toEqual({ tool: 'check_stock', field: 'items.0.left' });
    expect(parseFrom('check_stock')).toBeUndefined();
    expect(readField({ a: { b: [10, 20] } }, 'a.b.1')).toBe(20);
    expect(typeof readField({ a: 1 }, 'a.b')).toBe('symbol');
    expect(typeof readField({ ['__proto__']: 1 }, 'constructor')).toBe('symbol');
  });
});

function check(value: unknown): Check {
  const problems: Diagnostic[] = [];
  const c = readCheck(value, '', problems);
  expect(problems).toEqual([]);
  return c as Check;
}

describe('evaluateCheck', () => {
  it.each([
    [{ field: 'n', over: 10 }, { n: 11 }, TRUE],
    [{ field: 'n', over: 10 }, { n: 10 }, FALSE],
    [{ field: 'n', over: 10 }, { n: '10.01' }, TRUE],
    [{ field: 'n', under: new DecimalNumber('10.50') }, { n: '10.5' }, FALSE],
    [{ field: 'n', under: new DecimalNumber('10.50') }, { n: 10 }, TRUE],
    [{ field: 'n', at_least: 10 }, { n: '10.00' }, TRUE],
    [{ field: 'n', at_least: 10 }, { n: 9 }, FALSE],
    [{ field: 'n', at_most: -1 }, { n: '-1.0' }, TRUE],
    [{ field: 'n', at_most: -1 }, { n: 0 }, FALSE],
    [{ field: 'n', over: 10 }, { n: 10.5 }, UNKNOWN],
    [{ field: 'n', over: 10 }, { n: '1e3' }, UNKNOWN],
    [{ field: 'n', over: 10 }, { n: true }, UNKNOWN],
    [{ field: 'n', over: 10 }, {}, UNKNOWN],
    [{ field: 'n', over: 10 }, null, UNKNOWN],
    [{ field: 'c', is: 'DE' }, { c: 'DE' }, TRUE],
    [{ field: 'c', is: 'DE' }, { c: 'de' }, FALSE],
    [{ field: 'c', is: '5' }, { c: 5 }, UNKNOWN],
    [{ field: 'c', is: 5 }, { c: '5.0' }, TRUE],
    [{ field: 'c', is: true }, { c: 'true' }, UNKNOWN],
    [{ field: 'c', is: true }, { c: false }, FALSE],
    [{ field: 'c', is_not: 'DE' }, { c: 'FR' }, TRUE],
    [{ field: 'c', is_not: 'DE' }, { c: 'DE' }, FALSE],
    [{ field: 'c', is_not: 'DE' }, { c: 1 }, UNKNOWN],
    [{ field: 'c', in: ['DE', 'FR'] }, { c: 'FR' }, TRUE],
    [{ field: 'c', in: ['DE', 'FR'] }, { c: 'IT' }, FALSE],
    [{ field: 'c', in: ['DE', 'FR'] }, { c: 7 }, UNKNOWN],
    [{ field: 'c', in: ['DE', 7] }, { c: 'IT' }, FALSE],
    [{ field: 'c', not_in: ['DE', 'FR'] }, { c: 'IT' }, TRUE],
    [{ field: 'c', not_in: ['DE', 'FR'] }, { c: 'DE' }, FALSE],
    [{ field: 'c', not_in: ['DE', 'FR'] }, { c: null }, UNKNOWN],
    [{ field: 's.c', is: 'DE' }, { s: { c: 'DE' } }, TRUE],
    [{ field: 's.c', is: 'DE' }, { s: 'DE' }, UNKNOWN],
  ])('%j over %j is %s', (value, args, expected) => {
    expect(evaluateCheck(check(value), args, [])).toBe(expected);
  });

  const stock = check({ field: 'quantity', at_most: { from: 'check_stock.in_stock' } });

  it('reads from the most recent earlier call of the named tool', () => {
    const history: SessionCall[] = [
      { tool: 'check_stock', arguments: { sku: 'a' }, result: { in_stock: 10 } },
      { tool: 'other', result: { in_stock: 1 } },
      { tool: 'check_stock', arguments: { sku: 'a' }, result: { in_stock: 2 } },
      { tool: 'other', result: { in_stock: 100 } },
    ];
    expect(evaluateCheck(stock, { quantity: 2 }, history)).toBe(TRUE);
    expect(evaluateCheck(stock, { quantity: 3 }, history)).toBe(FALSE);
    expect(evaluateCheck(stock, { quantity: 3 }, history.slice(0, 2))).toBe(TRUE);
  });

  it('is unknown when the earlier call, its result or its field is missing, or the value is unreadable', () => {
    expect(evaluateCheck(stock, { quantity: 1 }, [])).toBe(UNKNOWN);
    expect(evaluateCheck(stock, { quantity: 1 }, [{ tool: 'other', result: { in_stock: 5 } }])).toBe(UNKNOWN);
    // The most recent call decides, even when an older one had the field.
    expect(evaluateCheck(stock, { quantity: 1 }, [{ tool: 'check_stock', result: { in_stock: 5 } }, { tool: 'check_stock' }])).toBe(
      UNKNOWN,
    );
    expect(evaluateCheck(stock, { quantity: 1 }, [{ tool: 'check_stock', result: { left: 5 } }])).toBe(UNKNOWN);
    expect(evaluateCheck(stock, { quantity: 1 }, [{ tool: 'check_stock', result: { in_stock: 'many' } }])).toBe(UNKNOWN);
    expect(evaluateCheck(stock, { quantity: 1 }, [{ tool: 'check_stock', result: { in_stock: 0.5 } }])).toBe(UNKNOWN);
    expect(evaluateCheck(stock, { quantity: 1 }, [{ tool: 'check_stock', result: { in_stock: '5' } }])).toBe(TRUE);
    expect(evaluateCheck(stock, {}, [{ tool: 'check_stock', result: { in_stock: 5 } }])).toBe(UNKNOWN);
  });

  it('compares in, not_in and is with what an earlier tool returned, type-strictly', () => {
    const allowed = check({ field: 'sku', in: { from: 'list_skus.skus' } });
    const blocked = check({ field: 'sku', not_in: { from: 'list_skus.skus' } });
    const same = check({ field: 'sku', is: { from: 'pick.sku' } });
    const history: SessionCall[] = [
      { tool: 'list_skus', result: { skus: ['a', 'b'] } },
      { tool: 'pick', result: { sku: 'a' } },
    ];
    expect(evaluateCheck(allowed, { sku: 'b' }, history)).toBe(TRUE);
    expect(evaluateCheck(allowed, { sku: 'c' }, history)).toBe(FALSE);
    expect(evaluateCheck(blocked, { sku: 'c' }, history)).toBe(TRUE);
    expect(evaluateCheck(allowed, { sku: 1 }, history)).toBe(UNKNOWN);
    expect(evaluateCheck(allowed, { sku: 'a' }, [{ tool: 'list_skus', result: { skus: 'a' } }])).toBe(UNKNOWN);
    expect(evaluateCheck(same, { sku: 'a' }, history)).toBe(TRUE);
    expect(evaluateCheck(same, { sku: 'b' }, history)).toBe(FALSE);
    expect(evaluateCheck(same, { sku: 'a' }, [{ tool: 'pick', result: { sku: { id: 'a' } } }])).toBe(UNKNOWN);
  });
});
