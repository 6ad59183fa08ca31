// `eq`: operand validation (scalars, exact integers) and three-valued equality.
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../source/diagnostic.ts';
import { compareScalar, eqFamily } from './eq.ts';
import { FALSE, TRUE, UNKNOWN } from './tri.ts';

function validate(condition: Record<string, unknown>, path = '/rules/0/when/0'): [string, string | undefined][] {
  const problems: Diagnostic[] = [];
  eqFamily.validate(condition, path, problems);
  return problems.map((p) => [p.code, p.path]);
}

describe('eqFamily.validate', () => {
  it('names its member', () => {
    expect(eqFamily.name).toBe('eq');
    expect(eqFamily.members).toEqual(['eq']);
  });

  it.each([['production'], [''], [0], [-5], [Number.MAX_SAFE_INTEGER], [Number.MIN_SAFE_INTEGER], [true], [false], [null]])(
    'accepts the scalar %j',
    (operand) => {
      expect(validate({ path: '/environment', eq: operand })).toEqual([]);
    },
  );

  it.each([
    ['an object', {}],
    ['an array', ['production']],
    ['an empty array', []],
  ])('refuses %s with INVALID_OPERAND at /eq', (_name, operand) => {
    expect(validate({ path: '/environment', eq: operand })).toEqual([['INVALID_OPERAND', '/rules/0/when/0/eq']]);
  });

  it.each([
    ['a fraction', 1.5],
    ['2^53', 2 ** 53],
    ['-(2^53)', -(2 ** 53)],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
  ])('refuses %s with INEXACT_NUMBER at /eq', (_name, operand) => {
    expect(validate({ path: '/count', eq: operand })).toEqual([['INEXACT_NUMBER', '/rules/0/when/0/eq']]);
  });

  it('puts the problem under the path it is given', () => {
    expect(validate({ path: '/a', eq: 0.5 }, '/rules/7/when/3')).toEqual([['INEXACT_NUMBER', '/rules/7/when/3/eq']]);
  });
});

describe('eqFamily.compile', () => {
  const test = (operand: unknown) => eqFamily.compile({ path: '/x', eq: operand });

  it('is TRUE for an equal value and FALSE for another value of the same type', () => {
    expect(test('production')('production')).toBe(TRUE);
    expect(test('production')('staging')).toBe(FALSE);
    expect(test('production')('Production')).toBe(FALSE);
    expect(test('production')('')).toBe(FALSE);
    expect(test(5)(5)).toBe(TRUE);
    expect(test(5)(6)).toBe(FALSE);
    expect(test(0)(-0)).toBe(TRUE);
    expect(test(true)(true)).toBe(TRUE);
    expect(test(true)(false)).toBe(FALSE);
    expect(test(null)(null)).toBe(TRUE);
  });

  it('is UNKNOWN, not FALSE, for a value of another type', () => {
    expect(test('production')(5)).toBe(UNKNOWN);
    expect(test('5')(5)).toBe(UNKNOWN);
    expect(test(5)('5')).toBe(UNKNOWN);
    expect(test(true)('true')).toBe(UNKNOWN);
    expect(test(1)(true)).toBe(UNKNOWN);
    expect(test('production')({ name: 'production' })).toBe(UNKNOWN);
    expect(test('production')(['production'])).toBe(UNKNOWN);
    expect(test('production')(undefined)).toBe(UNKNOWN);
  });

  it('treats null as a type of its own: null against a string operand is UNKNOWN, and the reverse', () => {
    expect(test('production')(null)).toBe(UNKNOWN);
    expect(test(null)('production')).toBe(UNKNOWN);
    expect(test(null)(0)).toBe(UNKNOWN);
    expect(test(null)(false)).toBe(UNKNOWN);
  });

  it('compares numbers only when the value is a safe integer', () => {
    expect(test(5)(5.5)).toBe(UNKNOWN);
    expect(test(5)(5.000000000000001)).toBe(UNKNOWN);
    expect(test(Number.MAX_SAFE_INTEGER)(2 ** 53)).toBe(UNKNOWN);
    expect(test(Number.MAX_SAFE_INTEGER)(Number.MAX_SAFE_INTEGER)).toBe(TRUE);
    expect(test(5)(Number.NaN)).toBe(UNKNOWN);
    expect(test(5)(Number.POSITIVE_INFINITY)).toBe(UNKNOWN);
  });

  it('compareScalar is the same test', () => {
    expect(compareScalar('a', 'a')).toBe(TRUE);
    expect(compareScalar('a', 'b')).toBe(FALSE);
    expect(compareScalar('a', 1)).toBe(UNKNOWN);
    expect(compareScalar(1, 1.5)).toBe(UNKNOWN);
  });
});
