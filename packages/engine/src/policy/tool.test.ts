// Tool bindings: validation with paths, and reading a call's amount exactly (docs/policy.md,
// "Amounts").
import { describe, expect, it } from 'vitest';
import { CompiledTool, INVALID_AMOUNT, NO_AMOUNT, validateToolBinding } from './tool.ts';
import type { ToolBinding } from './types.ts';

function codes(tool: unknown, path?: string): [string, string | undefined][] {
  return validateToolBinding(tool, path).map((p) => [p.code, p.path]);
}

const refund: ToolBinding = { name: 'issue_refund', action: 'refund.issue', amount: { pointer: '/amount', currency: 'USD' } };
const pinned: ToolBinding = {
  name: 'send_payout',
  action: 'payouts.send',
  amount: { pointer: '/amount', currency: 'USD', currency_pointer: '/currency' },
};

describe('validateToolBinding', () => {
  it('accepts tools with and without an amount mapping', () => {
    expect(codes(refund)).toEqual([]);
    expect(codes(pinned)).toEqual([]);
    expect(codes({ name: 'read.orders-v2_x', action: 'orders.read' })).toEqual([]);
    expect(codes({ name: 'x', action: 'a', amount: { pointer: '/payment/amount~1value', currency: 'EUR' } })).toEqual([]);
  });

  it.each([
    ['null', null],
    ['an array', [refund]],
    ['a string', 'issue_refund'],
  ])('refuses %s with INVALID_TYPE at the tool', (_name, tool) => {
    expect(codes(tool)).toEqual([['INVALID_TYPE', '']]);
    expect(codes(tool, '/tools/3')).toEqual([['INVALID_TYPE', '/tools/3']]);
  });

  it('refuses unknown members at their escaped path', () => {
    expect(codes({ ...refund, description: 'x', 'a/b': 1 })).toEqual([
      ['UNKNOWN_MEMBER', '/description'],
      ['UNKNOWN_MEMBER', '/a~1b'],
    ]);
  });

  it('refuses a missing name and action with MISSING_MEMBER', () => {
    expect(codes({})).toEqual([
      ['MISSING_MEMBER', '/name'],
      ['MISSING_MEMBER', '/action'],
    ]);
  });

  it.each([
    ['empty', ''],
    ['a space', 'issue refund'],
    ['a slash', 'issue/refund'],
    ['129 characters', 'a'.repeat(129)],
    ['a number', 5],
    ['null', null],
  ])('refuses a name that is %s with INVALID_TOOL_NAME at /name', (_name, name) => {
    expect(codes({ name, action: 'refund.issue' }, '/tools/0')).toEqual([['INVALID_TOOL_NAME', '/tools/0/name']]);
  });

  it.each([
    ['a wildcard', 'refund.*'],
    ['*', '*'],
    ['uppercase', 'Refund.issue'],
    ['empty', ''],
    ['reserved', 'tollgate.audit'],
    ['129 characters', 'a'.repeat(129)],
    ['a number', 1],
  ])('refuses an action that is %s with INVALID_ACTION at /action', (_name, action) => {
    expect(codes({ name: 'x', action }, '/tools/1')).toEqual([['INVALID_ACTION', '/tools/1/action']]);
  });

  it('refuses an amount mapping that is not an object with INVALID_TYPE at /amount', () => {
    expect(codes({ ...refund, amount: '/amount' })).toEqual([['INVALID_TYPE', '/amount']]);
    expect(codes({ ...refund, amount: null })).toEqual([['INVALID_TYPE', '/amount']]);
    expect(codes({ ...refund, amount: ['/amount'] })).toEqual([['INVALID_TYPE', '/amount']]);
  });

  it('checks every member of the mapping', () => {
    expect(codes({ ...refund, amount: {} })).toEqual([
      ['MISSING_MEMBER', '/amount/pointer'],
      ['MISSING_MEMBER', '/amount/currency'],
    ]);
    expect(codes({ ...refund, amount: { pointer: '/amount', currency: 'USD', decimals: 2 } })).toEqual([
      ['UNKNOWN_MEMBER', '/amount/decimals'],
    ]);
  });

  it.each([
    ['no leading slash', 'amount'],
    ['the whole arguments ""', ''],
    ['an invalid escape', '/a~2'],
    ['a number', 5],
  ])('refuses pointers with %s with INVALID_POINTER', (_name, pointer) => {
    expect(codes({ ...refund, amount: { pointer, currency: 'USD' } }, '/tools/2')).toEqual([
      ['INVALID_POINTER', '/tools/2/amount/pointer'],
    ]);
    expect(codes({ ...refund, amount: { pointer: '/amount', currency: 'USD', currency_pointer: pointer } })).toEqual([
      ['INVALID_POINTER', '/amount/currency_pointer'],
    ]);
  });

  it.each(['usd', 'US', 'USDX', 'U5D', '', 840, null])('refuses the currency %j with INVALID_CURRENCY', (currency) => {
    expect(codes({ ...refund, amount: { pointer: '/amount', currency } })).toEqual([['INVALID_CURRENCY', '/amount/currency']]);
  });

  it('collects every problem', () => {
    expect(
      codes({ name: '', action: 'tollgate.x', amount: { pointer: 'x', currency: 'usd', currency_pointer: '' }, x: 1 }, '/tools/9'),
    ).toEqual([
      ['UNKNOWN_MEMBER', '/tools/9/x'],
      ['INVALID_TOOL_NAME', '/tools/9/name'],
      ['INVALID_ACTION', '/tools/9/action'],
      ['INVALID_POINTER', '/tools/9/amount/pointer'],
      ['INVALID_POINTER', '/tools/9/amount/currency_pointer'],
      ['INVALID_CURRENCY', '/tools/9/amount/currency'],
    ]);
  });
});

describe('CompiledTool', () => {
  it('keeps the name, action and currency of a valid binding', () => {
    const tool = new CompiledTool(refund);
    expect(tool.valid).toBe(true);
    expect(tool.problems).toEqual([]);
    expect([tool.name, tool.action, tool.currency]).toEqual(['issue_refund', 'refund.issue', 'USD']);
    expect(new CompiledTool({ name: 'read', action: 'orders.read' }).currency).toBeUndefined();
  });

  it('keeps the problems of an invalid binding and reads no amount from it', () => {
    const tool = new CompiledTool({ name: 'issue_refund', action: 'refund.issue', amount: { pointer: 'amount', currency: 'USD' } });
    expect(tool.valid).toBe(false);
    expect(tool.problems.map((p) => [p.code, p.path])).toEqual([['INVALID_POINTER', '/amount/pointer']]);
    expect(tool.currency).toBeUndefined();
    expect(tool.readAmount({ amount: '5' })).toBe(NO_AMOUNT);
  });
});

describe('CompiledTool.readAmount', () => {
  const tool = new CompiledTool(refund);

  it('names its results: undefined for no amount, null for INVALID_AMOUNT', () => {
    expect(NO_AMOUNT).toBeUndefined();
    expect(INVALID_AMOUNT).toBeNull();
  });

  it.each([
    ['5', '5'],
    ['0', '0'],
    ['12.50', '12.50'],
    ['0.5', '0.5'],
    ['1000', '1000'],
    ['12.345', '12.345'],
    ['100.000', '100.000'],
    ['9'.repeat(18), '9'.repeat(18)],
    [`1.${'0'.repeat(17)}1`, `1.${'0'.repeat(17)}1`],
    // The seed bounds an amount's fraction (1 to 18 digits), not its integer part.
    ['1'.repeat(19), '1'.repeat(19)],
    [`1${'0'.repeat(24)}.5`, `1${'0'.repeat(24)}.5`],
  ])('reads the string %j exactly as given', (value, expected) => {
    expect(tool.readAmount({ amount: value })).toBe(expected);
  });

  it.each([
    [12, '12'],
    [0, '0'],
    [Number.MAX_SAFE_INTEGER, '9007199254740991'],
  ])('reads the integer %d as its digits', (value, expected) => {
    expect(tool.readAmount({ amount: value })).toBe(expected);
  });

  it.each([
    ['12.5', 12.5],
    ['-1', -1],
    ['2^53', 2 ** 53],
    ['1e21', 1e21],
    ['NaN', Number.NaN],
    ['null', null],
    ['true', true],
    ['false', false],
    ['"1e3"', '1e3'],
    ['"-5"', '-5'],
    ['"-0"', '-0'],
    ['"012"', '012'],
    ['"+5"', '+5'],
    ['" 5"', ' 5'],
    ['"5."', '5.'],
    ['""', ''],
    ['"12.3456789012345678901"', '12.3456789012345678901'],
    ['19 fraction digits', `0.${'1'.repeat(19)}`],
    ['an object', { value: '5', currency: 'USD' }],
    ['an array', ['5']],
  ])('refuses %s with INVALID_AMOUNT (null)', (_name, value) => {
    expect(tool.readAmount({ amount: value })).toBeNull();
  });

  it('is undefined (no amount) when nothing is at the pointer', () => {
    expect(tool.readAmount({})).toBeUndefined();
    expect(tool.readAmount({ total: '5' })).toBeUndefined();
    expect(tool.readAmount(null)).toBeUndefined();
    expect(tool.readAmount('5')).toBeUndefined();
    expect(tool.readAmount(['5'])).toBeUndefined();
  });

  it('follows nested and escaped pointers', () => {
    const nested = new CompiledTool({ name: 'pay', action: 'pay.send', amount: { pointer: '/payment/unit~1amount', currency: 'EUR' } });
    expect(nested.readAmount({ payment: { 'unit/amount': '7.25' } })).toBe('7.25');
    expect(nested.readAmount({ payment: { unit: { amount: '7.25' } } })).toBeUndefined();
  });

  it('is undefined for a tool without an amount mapping, even with an amount argument', () => {
    const read = new CompiledTool({ name: 'read_orders', action: 'orders.read' });
    expect(read.readAmount({ amount: '5' })).toBeUndefined();
    expect(read.readAmount({ amount: 'not a number' })).toBeUndefined();
    expect(read.readAmount({ amount: '5', currency: 'USD' })).toBeUndefined();
  });

  it('does not read a currency argument without a currency pointer', () => {
    expect(tool.readAmount({ amount: '5', currency: 'EUR' })).toBe('5');
    expect(tool.readAmount({ amount: '5', currency: 'usd' })).toBe('5');
    expect(tool.readAmount({ amount: 5, currency: 5 })).toBe('5');
  });

  describe('with a currency pointer', () => {
    const payout = new CompiledTool(pinned);

    it('reads the amount when the call names exactly the tool currency', () => {
      expect(payout.readAmount({ amount: '5', currency: 'USD' })).toBe('5');
      expect(payout.readAmount({ amount: 12, currency: 'USD' })).toBe('12');
    });

    it.each([
      ['another code', 'EUR'],
      ['a lowercase code', 'usd'],
      ['a padded code', ' USD'],
      ['a number', 5],
      ['null', null],
      ['an object', { code: 'USD' }],
    ])('refuses %s with INVALID_AMOUNT', (_name, currency) => {
      expect(payout.readAmount({ amount: '5', currency })).toBeNull();
    });

    it('refuses a missing currency with INVALID_AMOUNT, with or without an amount', () => {
      expect(payout.readAmount({ amount: '5' })).toBeNull();
      expect(payout.readAmount({})).toBeNull();
    });

    it('is undefined when the currency is right and no amount is given', () => {
      expect(payout.readAmount({ currency: 'USD' })).toBeUndefined();
    });

    it('still refuses a malformed amount in the right currency', () => {
      expect(payout.readAmount({ amount: '-5', currency: 'USD' })).toBeNull();
      expect(payout.readAmount({ amount: 12.5, currency: 'USD' })).toBeNull();
    });
  });
});
