// Template helpers: exact steps next to a limit, pattern overlap, example actions and wording.
import { describe, expect, it } from 'vitest';
import { justOver, stepAbove, stepBelow } from './decimal-steps.ts';
import { describeList, describeRoles, describeSeconds } from './describe.ts';
import { actionFor, patternsOverlap, unmatchedAction } from './patterns.ts';

describe('decimal steps', () => {
  it('steps by a cent when it fits, by finer steps otherwise', () => {
    expect(stepAbove('100', '1000')).toBe('100.01');
    expect(stepAbove('100', '100.005')).toBe('100.000001');
    expect(stepAbove('0.000000000000000001', '0.000000000000000003')).toBe('0.000000000000000002');
    expect(stepAbove('0.000000000000000001', '0.000000000000000002')).toBeUndefined();
    expect(stepBelow('100')).toBe('99.99');
    expect(stepBelow('0.005')).toBe('0.004999');
    expect(stepBelow('0.000000000000000001')).toBe('0');
    expect(stepBelow('0')).toBeUndefined();
  });

  it('stays exact at the largest limits', () => {
    expect(justOver('1000000000000000')).toBe('1000000000000000.01');
    expect(stepAbove('999999999999999.999999999999999998', '999999999999999.999999999999999999')).toBeUndefined();
    expect(stepBelow('1000000000000000')).toBe('999999999999999.99');
    expect(stepAbove('999999999999999.99', '1000000000000000')).toBe('999999999999999.990001');
  });
});

describe('patterns', () => {
  it('knows when two patterns can match one action', () => {
    expect(patternsOverlap('orders.*', 'orders.read')).toBe(true);
    expect(patternsOverlap('orders.read', 'orders.*')).toBe(true);
    expect(patternsOverlap('orders.*', 'orders')).toBe(false);
    expect(patternsOverlap('orders.*', 'orders.read.*')).toBe(true);
    expect(patternsOverlap('orders.*', 'ordersx.*')).toBe(false);
    expect(patternsOverlap('a.b', 'a.b')).toBe(true);
    expect(patternsOverlap('a.b', 'a.c')).toBe(false);
    expect(patternsOverlap('*', 'a.c')).toBe(true);
  });

  it('calls a wildcard through an action it matches', () => {
    expect(actionFor('orders.read')).toBe('orders.read');
    expect(actionFor('orders.*')).toBe('orders.read');
    expect(actionFor('payouts.*', 'send')).toBe('payouts.send');
    const long = `${'a'.repeat(125)}.*`;
    expect(actionFor(long)).toBe(`${'a'.repeat(125)}.x`);
  });

  it('finds an action no pattern matches', () => {
    expect(unmatchedAction(['orders.*'], ['orders.update', 'customers.delete'])).toBe('customers.delete');
    expect(unmatchedAction(['a', 'unlisted-1.write'], ['a'])).toBe('unlisted-2.write');
    expect(() => unmatchedAction(['*'], ['a'])).toThrow();
  });
});

describe('wording', () => {
  it('lists, roles and lifetimes', () => {
    expect(describeList(['a'])).toBe('a');
    expect(describeList(['a', 'b', 'c'])).toBe('a, b and c');
    expect(describeRoles(['owner', 'admin'])).toBe('an owner or admin');
    expect(describeRoles(['approver'])).toBe('an approver');
    expect(describeSeconds(14400)).toBe('4 hours');
    expect(describeSeconds(86400)).toBe('1 day');
    expect(describeSeconds(90)).toBe('90 seconds');
    expect(describeSeconds(120)).toBe('2 minutes');
  });
});
