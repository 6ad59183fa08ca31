// `starts_with`: prefix-list validation and three-valued prefix tests on strings.
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../source/diagnostic.ts';
import { MAX_PREFIXES, startsWithFamily } from './starts-with.ts';
import { FALSE, TRUE, UNKNOWN } from './tri.ts';

const AT = '/rules/2/when/0';

function validate(list: unknown): [string, string | undefined][] {
  const problems: Diagnostic[] = [];
  startsWithFamily.validate({ path: '/lines/*/sku', for: 'all', starts_with: list }, AT, problems);
  return problems.map((p) => [p.code, p.path]);
}

describe('startsWithFamily.validate', () => {
  it('names its member', () => {
    expect(startsWithFamily.name).toBe('starts_with');
    expect(startsWithFamily.members).toEqual(['starts_with']);
  });

  it('accepts distinct non-empty prefixes', () => {
    expect(validate(['SKU-'])).toEqual([]);
    expect(validate(['SKU-', 'sku-', 'SKU-1'])).toEqual([]);
  });

  it.each([
    ['a string', 'SKU-'],
    ['an object', { prefix: 'SKU-' }],
    ['null', null],
  ])('refuses %s with INVALID_TYPE at /starts_with', (_name, list) => {
    expect(validate(list)).toEqual([['INVALID_TYPE', `${AT}/starts_with`]]);
  });

  it('refuses an empty list with EMPTY_LIST', () => {
    expect(validate([])).toEqual([['EMPTY_LIST', `${AT}/starts_with`]]);
  });

  it(`accepts ${MAX_PREFIXES} prefixes and refuses ${MAX_PREFIXES + 1} with LIST_TOO_LONG`, () => {
    expect(MAX_PREFIXES).toBe(64);
    const prefixes = Array.from({ length: MAX_PREFIXES + 1 }, (_, i) => `P${i}-`);
    expect(validate(prefixes.slice(0, MAX_PREFIXES))).toEqual([]);
    expect(validate(prefixes)).toEqual([['LIST_TOO_LONG', `${AT}/starts_with`]]);
  });

  it('refuses non-strings and the empty prefix with INVALID_OPERAND at their index', () => {
    expect(validate(['SKU-', 5, '', null, ['x'], true])).toEqual([
      ['INVALID_OPERAND', `${AT}/starts_with/1`],
      ['INVALID_OPERAND', `${AT}/starts_with/2`],
      ['INVALID_OPERAND', `${AT}/starts_with/3`],
      ['INVALID_OPERAND', `${AT}/starts_with/4`],
      ['INVALID_OPERAND', `${AT}/starts_with/5`],
    ]);
  });

  it('reports repeated prefixes with DUPLICATE_VALUE at the repeat', () => {
    expect(validate(['SKU-', 'X', 'SKU-'])).toEqual([['DUPLICATE_VALUE', `${AT}/starts_with/2`]]);
  });
});

describe('startsWithFamily.compile', () => {
  const test = (prefixes: string[]) => startsWithFamily.compile({ path: '/sku', starts_with: prefixes });

  it('is TRUE when the string begins with any prefix, FALSE otherwise', () => {
    const t = test(['SKU-', 'TMP-']);
    expect(t('SKU-123')).toBe(TRUE);
    expect(t('TMP-')).toBe(TRUE);
    expect(t('sku-123')).toBe(FALSE);
    expect(t('XSKU-1')).toBe(FALSE);
    expect(t('SKU')).toBe(FALSE);
    expect(t('')).toBe(FALSE);
  });

  it('compares UTF-16 code units exactly (no normalisation)', () => {
    expect(test(['é'])('é')).toBe(TRUE);
    expect(test(['é'])('e\u0301')).toBe(FALSE);
  });

  it.each([
    ['a number', 123],
    ['a boolean', true],
    ['null', null],
    ['an array', ['SKU-1']],
    ['an object', { sku: 'SKU-1' }],
    ['undefined', undefined],
  ])('is UNKNOWN for %s', (_name, value) => {
    expect(test(['SKU-'])(value)).toBe(UNKNOWN);
  });
});
