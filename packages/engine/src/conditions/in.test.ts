// `in`: list validation and three-valued membership (another type than the list's is UNKNOWN).
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../source/diagnostic.ts';
import { inFamily, MAX_IN_ITEMS } from './in.ts';
import { FALSE, TRUE, UNKNOWN } from './tri.ts';

const AT = '/rules/0/when/0';

function validate(list: unknown): [string, string | undefined][] {
  const problems: Diagnostic[] = [];
  inFamily.validate({ path: '/environment', in: list }, AT, problems);
  return problems.map((p) => [p.code, p.path]);
}

describe('inFamily.validate', () => {
  it('names its member', () => {
    expect(inFamily.name).toBe('in');
    expect(inFamily.members).toEqual(['in']);
  });

  it('accepts a list of distinct scalars of mixed types', () => {
    expect(validate(['dev', 'staging'])).toEqual([]);
    expect(validate(['1', 1, true, null, false, 0, ''])).toEqual([]);
  });

  it.each([
    ['a string', 'dev'],
    ['an object', { dev: true }],
    ['null', null],
    ['a number', 1],
  ])('refuses %s with INVALID_TYPE at /in', (_name, list) => {
    expect(validate(list)).toEqual([['INVALID_TYPE', `${AT}/in`]]);
  });

  it('refuses an empty list with EMPTY_LIST', () => {
    expect(validate([])).toEqual([['EMPTY_LIST', `${AT}/in`]]);
  });

  it(`accepts ${MAX_IN_ITEMS} values and refuses ${MAX_IN_ITEMS + 1} with LIST_TOO_LONG`, () => {
    expect(MAX_IN_ITEMS).toBe(256);
    const values = Array.from({ length: MAX_IN_ITEMS + 1 }, (_, i) => `v${i}`);
    expect(validate(values.slice(0, MAX_IN_ITEMS))).toEqual([]);
    expect(validate(values)).toEqual([['LIST_TOO_LONG', `${AT}/in`]]);
  });

  it('reports each repeated value at its own index with DUPLICATE_VALUE', () => {
    expect(validate(['dev', 'staging', 'dev', 'dev'])).toEqual([
      ['DUPLICATE_VALUE', `${AT}/in/2`],
      ['DUPLICATE_VALUE', `${AT}/in/3`],
    ]);
    expect(validate([null, 1, null])).toEqual([['DUPLICATE_VALUE', `${AT}/in/2`]]);
    expect(validate([true, true])).toEqual([['DUPLICATE_VALUE', `${AT}/in/1`]]);
    expect(validate([1, '1'])).toEqual([]);
  });

  it('reports bad items by index: INVALID_OPERAND for non-scalars, INEXACT_NUMBER for inexact numbers', () => {
    expect(validate(['dev', {}, ['x'], 1.5, 2 ** 53, 7])).toEqual([
      ['INVALID_OPERAND', `${AT}/in/1`],
      ['INVALID_OPERAND', `${AT}/in/2`],
      ['INEXACT_NUMBER', `${AT}/in/3`],
      ['INEXACT_NUMBER', `${AT}/in/4`],
    ]);
  });

  it('collects every problem of a long bad list', () => {
    const values = [...Array.from({ length: MAX_IN_ITEMS }, (_, i) => i), 0];
    expect(validate(values)).toEqual([
      ['LIST_TOO_LONG', `${AT}/in`],
      ['DUPLICATE_VALUE', `${AT}/in/${MAX_IN_ITEMS}`],
    ]);
  });
});

describe('inFamily.compile', () => {
  const test = (list: unknown[]) => inFamily.compile({ path: '/x', in: list });

  it('is TRUE for a listed value and FALSE for an unlisted value of a listed type', () => {
    const t = test(['dev', 'staging']);
    expect(t('dev')).toBe(TRUE);
    expect(t('staging')).toBe(TRUE);
    expect(t('production')).toBe(FALSE);
    expect(t('Dev')).toBe(FALSE);
  });

  it('is UNKNOWN for a value whose type the list does not speak about', () => {
    const t = test(['dev', 'staging']);
    expect(t(5)).toBe(UNKNOWN);
    expect(t(true)).toBe(UNKNOWN);
    expect(t(null)).toBe(UNKNOWN);
    expect(t({})).toBe(UNKNOWN);
    expect(t(['dev'])).toBe(UNKNOWN);
    expect(t(undefined)).toBe(UNKNOWN);
  });

  it('decides mixed lists by the value type', () => {
    const t = test(['1', 2, null]);
    expect(t('1')).toBe(TRUE);
    expect(t(2)).toBe(TRUE);
    expect(t(null)).toBe(TRUE);
    expect(t('2')).toBe(FALSE);
    expect(t(1)).toBe(FALSE);
    expect(t(false)).toBe(UNKNOWN);
  });

  it('compares numbers only when the value is a safe integer', () => {
    const t = test([1, 2, Number.MAX_SAFE_INTEGER]);
    expect(t(2)).toBe(TRUE);
    expect(t(3)).toBe(FALSE);
    expect(t(1.5)).toBe(UNKNOWN);
    expect(t(2 ** 53)).toBe(UNKNOWN);
    expect(t(Number.NaN)).toBe(UNKNOWN);
    expect(t(Number.MAX_SAFE_INTEGER)).toBe(TRUE);
  });

  it('reads booleans and null as their own types', () => {
    expect(test([true])(true)).toBe(TRUE);
    expect(test([true])(false)).toBe(FALSE);
    expect(test([true])(1)).toBe(UNKNOWN);
    expect(test([null])(null)).toBe(TRUE);
    expect(test([null])('null')).toBe(UNKNOWN);
  });
});
