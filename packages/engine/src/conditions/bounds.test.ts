// Numeric bounds gt/gte/lt/lte: decimal-string validation (signed for conditions, unsigned for amounts),
// contradictory bounds, and exact three-valued comparison of argument values.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../source/diagnostic.ts';
import { BOUND_MEMBERS, type Bounds, boundsAdmitAValue, boundsFamily, pickBounds, satisfiesBounds, validateBounds } from './bounds.ts';
import { FALSE, TRUE, UNKNOWN } from './tri.ts';

const AT = '/rules/2/when/1';

function familyProblems(condition: Record<string, unknown>): [string, string | undefined][] {
  const problems: Diagnostic[] = [];
  boundsFamily.validate({ path: '/qty', ...condition }, AT, problems);
  return problems.map((p) => [p.code, p.path]);
}

function amountProblems(amount: Record<string, unknown>): [string, string | undefined][] {
  const problems: Diagnostic[] = [];
  validateBounds(amount, '/rules/1/amount', problems, false);
  return problems.map((p) => [p.code, p.path]);
}

describe('boundsFamily.validate', () => {
  it('names its members', () => {
    expect(boundsFamily.name).toBe('bounds');
    expect(boundsFamily.members).toEqual(['gt', 'gte', 'lt', 'lte']);
    expect(BOUND_MEMBERS).toEqual(['gt', 'gte', 'lt', 'lte']);
  });

  it.each([
    [{ gt: '0' }],
    [{ gt: '0', lte: '500' }],
    [{ gte: '-5' }],
    [{ gt: '-10.5', lt: '-0.25' }],
    [{ gte: '5', lte: '5' }],
    [{ gte: '5.0', lte: '5' }],
    [{ gt: '10', gte: '3', lt: '11' }],
    [{ gt: '4.999999999999999999', lt: '5' }],
    [{ lt: '-0' }],
  ])('accepts %j', (condition) => {
    expect(familyProblems(condition)).toEqual([]);
  });

  it.each([
    ['an exponent', '1e3'],
    ['a leading zero', '012'],
    ['a plus sign', '+5'],
    ['a trailing point', '5.'],
    ['a leading point', '.5'],
    ['a space', ' 5'],
    ['19 integer digits', '1'.repeat(19)],
    ['19 fraction digits', `0.${'1'.repeat(19)}`],
    ['the empty string', ''],
    ['a lone minus', '-'],
    ['a number', 5],
    ['null', null],
    ['a boolean', true],
  ])('refuses %s with INVALID_DECIMAL at the bound', (_name, value) => {
    expect(familyProblems({ gt: value })).toEqual([['INVALID_DECIMAL', `${AT}/gt`]]);
    expect(familyProblems({ lte: value })).toEqual([['INVALID_DECIMAL', `${AT}/lte`]]);
  });

  it('reports every malformed bound and skips the contradiction check when one is malformed', () => {
    expect(familyProblems({ gt: '1e3', gte: 5, lt: '1', lte: 'x' })).toEqual([
      ['INVALID_DECIMAL', `${AT}/gt`],
      ['INVALID_DECIMAL', `${AT}/gte`],
      ['INVALID_DECIMAL', `${AT}/lte`],
    ]);
    expect(familyProblems({ gt: '10', lt: '5', lte: '1e1' })).toEqual([['INVALID_DECIMAL', `${AT}/lte`]]);
  });

  it.each([
    [{ gt: '5', lt: '5' }],
    [{ gt: '5', lte: '5' }],
    [{ gte: '5', lt: '5' }],
    [{ gt: '10', lt: '5' }],
    [{ gte: '5.01', lte: '5' }],
    [{ gt: '5.0', lte: '5' }],
    [{ gt: '-5', lt: '-10' }],
    [{ gte: '0', lt: '-0' }],
    [{ gt: '3', gte: '10', lt: '11', lte: '9' }],
  ])('refuses %j with CONTRADICTORY_BOUNDS at the condition', (condition) => {
    expect(familyProblems(condition)).toEqual([['CONTRADICTORY_BOUNDS', AT]]);
  });
});

describe('validateBounds for amounts (unsigned)', () => {
  it('accepts non-negative thresholds', () => {
    expect(amountProblems({ currency: 'USD', gt: '100', lte: '1000' })).toEqual([]);
    expect(amountProblems({ currency: 'USD', gte: '0', lt: '99.50' })).toEqual([]);
  });

  it('refuses negative thresholds with INVALID_DECIMAL', () => {
    expect(amountProblems({ currency: 'USD', gt: '-5' })).toEqual([['INVALID_DECIMAL', '/rules/1/amount/gt']]);
    expect(amountProblems({ currency: 'USD', lt: '-0' })).toEqual([['INVALID_DECIMAL', '/rules/1/amount/lt']]);
  });

  it('refuses contradictions at the amount', () => {
    expect(amountProblems({ currency: 'USD', gt: '10', lt: '5' })).toEqual([['CONTRADICTORY_BOUNDS', '/rules/1/amount']]);
  });

  it('ignores members that are not bounds', () => {
    expect(amountProblems({ currency: 5 })).toEqual([]);
  });
});

describe('boundsAdmitAValue', () => {
  it.each([
    [{}, true],
    [{ gt: '5' }, true],
    [{ lt: '5' }, true],
    [{ gt: '5', lt: '5' }, false],
    [{ gte: '5', lte: '5' }, true],
    [{ gt: '5', lte: '5' }, false],
    [{ gte: '5', lt: '5' }, false],
    [{ gt: '4.999999999999999999', lt: '5' }, true],
    [{ gt: '10', gte: '3', lt: '11' }, true],
    [{ gt: '10', gte: '3', lt: '10.000000000000000001' }, true],
    [{ gt: '10', gte: '10', lte: '10' }, false],
    [{ gte: '10', gt: '9', lte: '10' }, true],
    [{ gte: '10', lte: '10', lt: '10' }, false],
    [{ gte: '10', lte: '11', lt: '10.5' }, true],
    [{ gte: '-0', lte: '0' }, true],
    [{ gt: '-1', lt: '-0.999999999999999999' }, true],
    [{ gt: '-1', lt: '-1.0' }, false],
  ] as [Bounds, boolean][])('%j → %s', (b, expected) => {
    expect(boundsAdmitAValue(b)).toBe(expected);
  });
});

describe('satisfiesBounds', () => {
  it.each([
    ['5', { gt: '5' }, false],
    ['5.000000000000000001', { gt: '5' }, true],
    ['5', { gte: '5.00' }, true],
    ['4.999999999999999999', { gte: '5' }, false],
    ['5', { lt: '5' }, false],
    ['5', { lte: '5' }, true],
    ['5.0', { lte: '5' }, true],
    ['100', { gt: '100', lte: '1000' }, false],
    ['100.01', { gt: '100', lte: '1000' }, true],
    ['1000.00', { gt: '100', lte: '1000' }, true],
    ['-0', { gte: '0' }, true],
    ['-0.1', { gte: '0' }, false],
    ['-5', { gt: '-10', lt: '-1' }, true],
    ['0', {}, true],
  ] as [string, Bounds, boolean][])('%j in %j → %s', (value, b, expected) => {
    expect(satisfiesBounds(value, b)).toBe(expected);
  });

  it('a value satisfies bounds only if the bounds admit a value', () => {
    const decimal = fc.integer({ min: -20, max: 20 }).map((n) => (n / 2).toFixed(1));
    const bounds = fc.record({ gt: decimal, gte: decimal, lt: decimal, lte: decimal }, { requiredKeys: [] });
    fc.assert(
      fc.property(bounds, decimal, (b, v) => {
        if (satisfiesBounds(v, b)) expect(boundsAdmitAValue(b)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('boundsAdmitAValue is false only when no value on a fine grid satisfies the bounds', () => {
    const decimal = fc.integer({ min: -6, max: 6 }).map(String);
    const bounds = fc.record({ gt: decimal, gte: decimal, lt: decimal, lte: decimal }, { requiredKeys: [] });
    const grid = Array.from({ length: 161 }, (_, i) => ((i - 80) / 10).toFixed(1));
    fc.assert(
      fc.property(bounds, (b) => {
        expect(grid.some((v) => satisfiesBounds(v, b))).toBe(boundsAdmitAValue(b));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('pickBounds', () => {
  it('keeps only string bounds', () => {
    expect(pickBounds({ path: '/x', gt: '1', gte: 2, lt: '3', currency: 'USD' })).toEqual({ gt: '1', lt: '3' });
  });
});

describe('boundsFamily.compile', () => {
  const test = (b: Record<string, string>) => boundsFamily.compile({ path: '/qty', ...b });

  it('compares decimal strings exactly', () => {
    const t = test({ gt: '0', lte: '500' });
    expect(t('1')).toBe(TRUE);
    expect(t('500')).toBe(TRUE);
    expect(t('500.00')).toBe(TRUE);
    expect(t('500.000000000000000001')).toBe(FALSE);
    expect(t('0')).toBe(FALSE);
    expect(t('-0')).toBe(FALSE);
    expect(t('0.000000000000000001')).toBe(TRUE);
    expect(t('-1')).toBe(FALSE);
  });

  it('compares integer JSON numbers by their digits', () => {
    const t = test({ gt: '0', lte: '500' });
    expect(t(1)).toBe(TRUE);
    expect(t(500)).toBe(TRUE);
    expect(t(501)).toBe(FALSE);
    expect(t(0)).toBe(FALSE);
    expect(t(-3)).toBe(FALSE);
    expect(test({ gt: '9007199254740990' })(Number.MAX_SAFE_INTEGER)).toBe(TRUE);
  });

  it('compares values beyond 18 integer digits exactly (a threshold is bounded, a value is not)', () => {
    const t = test({ lte: '999999999999999999.999999999999999999' });
    expect(t('1000000000000000000')).toBe(FALSE);
    expect(t('999999999999999999.999999999999999999')).toBe(TRUE);
    expect(t('-1000000000000000000000')).toBe(TRUE);
  });

  it('handles negative thresholds', () => {
    const t = test({ gte: '-10', lt: '-2.5' });
    expect(t('-10')).toBe(TRUE);
    expect(t(-10)).toBe(TRUE);
    expect(t('-2.6')).toBe(TRUE);
    expect(t('-2.5')).toBe(FALSE);
    expect(t(-11)).toBe(FALSE);
    expect(t('0')).toBe(FALSE);
  });

  it.each([
    ['"1e3"', '1e3'],
    ['"012"', '012'],
    ['"+5"', '+5'],
    ['" 5"', ' 5'],
    ['"5."', '5.'],
    ['""', ''],
    ['a 19-digit fraction', `0.${'1'.repeat(19)}`],
    ['a fraction number', 12.5],
    ['2^53', 2 ** 53],
    ['NaN', Number.NaN],
    ['true', true],
    ['null', null],
    ['an array', ['5']],
    ['an object', { value: '5' }],
    ['undefined', undefined],
  ])('is UNKNOWN for %s', (_name, value) => {
    expect(test({ gt: '0', lte: '500' })(value)).toBe(UNKNOWN);
    expect(test({ gt: '100000' })(value)).toBe(UNKNOWN);
  });
});
