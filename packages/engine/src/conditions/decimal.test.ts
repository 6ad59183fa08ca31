// Exact decimals: the grammar, the allocation-free comparison (differential against decimal.js),
// reading argument values as decimals, and normalising.
import Decimal from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareDecimal, isDecimalString, isDecimalValue, MAX_DECIMAL_DIGITS, normalizeDecimal, readNumeric } from './decimal.ts';

const d18 = '9'.repeat(18);
const d19 = '9'.repeat(19);

describe('isDecimalString', () => {
  it.each([
    // [text, unsigned, signed]
    ['0', true, true],
    ['12.50', true, true],
    ['0.5', true, true],
    ['1000', true, true],
    ['12.345', true, true],
    [d18, true, true],
    [d19, false, false],
    [`1${'0'.repeat(17)}`, true, true],
    [`0.${d18}`, true, true],
    [`0.${d19}`, false, false],
    [`${d18}.${d18}`, true, true],
    ['012', false, false],
    ['00', false, false],
    ['00.5', false, false],
    ['0.0', true, true],
    ['1.', false, false],
    ['.5', false, false],
    ['+1', false, false],
    ['-1', false, true],
    ['-0', false, true],
    ['-0.50', false, true],
    ['-012', false, false],
    ['--1', false, false],
    ['-.5', false, false],
    ['-', false, false],
    ['1-', false, false],
    ['1e3', false, false],
    ['1E3', false, false],
    [' 1', false, false],
    ['1 ', false, false],
    ['１', false, false],
    ['1.2.3', false, false],
    ['1,5', false, false],
    ['0x10', false, false],
    ['Infinity', false, false],
    ['NaN', false, false],
    ['', false, false],
  ])('%j: unsigned %s, signed %s', (text, unsigned, signed) => {
    expect(isDecimalString(text)).toBe(unsigned);
    expect(isDecimalString(text, false)).toBe(unsigned);
    expect(isDecimalString(text, true)).toBe(signed);
  });

  it('limits the integer and fraction parts to MAX_DECIMAL_DIGITS each, also when signed', () => {
    expect(MAX_DECIMAL_DIGITS).toBe(18);
    expect(isDecimalString(`-${d18}.${d18}`, true)).toBe(true);
    expect(isDecimalString(`-${d19}`, true)).toBe(false);
    expect(isDecimalString(`-1.${d19}`, true)).toBe(false);
  });

  it('agrees with the grammar written as a regular expression on generated strings', () => {
    const unsigned = /^(?:0|[1-9][0-9]{0,17})(?:\.[0-9]{1,18})?$/;
    const signed = /^-?(?:0|[1-9][0-9]{0,17})(?:\.[0-9]{1,18})?$/;
    const text = fc.string({ unit: fc.constantFrom('0', '1', '9', '.', '-', '+', 'e', ' '), maxLength: 24 });
    fc.assert(
      fc.property(text, (s) => {
        expect(isDecimalString(s)).toBe(unsigned.test(s));
        expect(isDecimalString(s, true)).toBe(signed.test(s));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('isDecimalValue', () => {
  it('is the isDecimalString grammar without the limit on integer digits (docs/policy.md: amounts bound only the fraction)', () => {
    expect(isDecimalValue(d19)).toBe(true);
    expect(isDecimalValue(`1${'0'.repeat(30)}.${d18}`)).toBe(true);
    expect(isDecimalValue(`-${d19}`, true)).toBe(true);
    expect(isDecimalValue(`-${d19}`)).toBe(false);
    expect(isDecimalValue(`0.${d19}`)).toBe(false);
    expect(isDecimalValue(`0${d19}`)).toBe(false);
    expect(isDecimalValue('1e3')).toBe(false);
    expect(isDecimalValue('')).toBe(false);
  });

  it('agrees with isDecimalString wherever the integer part has at most 18 digits', () => {
    const text = fc.string({ unit: fc.constantFrom('0', '1', '9', '.', '-', 'e'), maxLength: 40 });
    fc.assert(
      fc.property(text, fc.boolean(), (s, signed) => {
        const integerDigits = /^-?([0-9]*)/.exec(s)?.[1]?.length ?? 0;
        if (integerDigits <= MAX_DECIMAL_DIGITS) expect(isDecimalValue(s, signed)).toBe(isDecimalString(s, signed));
        else expect(isDecimalValue(s, signed)).toBe(/^-?[1-9][0-9]*(?:\.[0-9]{1,18})?$/.test(s) && (signed || !s.startsWith('-')));
      }),
      { numRuns: 2000 },
    );
  });
});

// Well-formed signed decimals; digits drawn from a small set so equal and near-equal values are common.
const digit = fc.constantFrom('0', '1', '5', '9');
const nonZeroDigit = fc.constantFrom('1', '5', '9');
const integerPart = fc.oneof(
  fc.constant('0'),
  fc.tuple(nonZeroDigit, fc.string({ unit: digit, maxLength: 17 })).map(([h, t]) => h + t),
  fc.tuple(nonZeroDigit, fc.string({ unit: digit, minLength: 18, maxLength: 30 })).map(([h, t]) => h + t),
);
const fractionPart = fc.option(fc.string({ unit: digit, minLength: 1, maxLength: 18 }), { nil: undefined });
const signedDecimal = fc
  .tuple(fc.boolean(), integerPart, fractionPart)
  .map(([negative, int, frac]) => `${negative ? '-' : ''}${int}${frac === undefined ? '' : `.${frac}`}`);

/** The same value written differently: trailing fraction zeros added or removed, "-" on zero toggled. */
function rewrite(s: string, zeros: number): string {
  let out = s;
  if (out.includes('.')) out = out.replace(/0+$/, '').replace(/\.$/, '');
  const fracLength = out.includes('.') ? out.length - out.indexOf('.') - 1 : 0;
  const add = Math.min(zeros, MAX_DECIMAL_DIGITS - fracLength);
  if (add > 0) out = `${out}${out.includes('.') ? '' : '.'}${'0'.repeat(add)}`;
  if (/^-?0(?:\.0*)?$/.test(out)) out = out.startsWith('-') ? out.slice(1) : `-${out}`;
  return out;
}

function reference(a: string, b: string): number {
  return new Decimal(a).cmp(new Decimal(b));
}

/** compareDecimal's result with -0 read as 0: it answers -0 for equal negative values, which `===` treats as 0. */
function compare(a: string, b: string): number {
  const c = compareDecimal(a, b);
  return c === 0 ? 0 : c;
}

describe('compareDecimal', () => {
  it('the generators produce only well-formed signed decimal values', () => {
    fc.assert(
      fc.property(signedDecimal, fc.nat(20), (s, zeros) => {
        expect(isDecimalValue(s, true)).toBe(true);
        expect(isDecimalValue(rewrite(s, zeros), true)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('agrees with decimal.js on generated pairs', () => {
    fc.assert(
      fc.property(signedDecimal, signedDecimal, (a, b) => {
        expect(compare(a, b)).toBe(reference(a, b));
        expect(compare(b, a)).toBe(reference(b, a));
      }),
      { numRuns: 3000 },
    );
  });

  it('agrees with decimal.js on equal values written differently', () => {
    fc.assert(
      fc.property(signedDecimal, fc.nat(20), (a, zeros) => {
        const b = rewrite(a, zeros);
        expect(reference(a, b)).toBe(0);
        expect(compare(a, b)).toBe(0);
        expect(compare(b, a)).toBe(0);
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees with decimal.js on values sharing a long prefix', () => {
    const pair = fc.tuple(signedDecimal, fc.string({ unit: digit, maxLength: 6 }), fc.string({ unit: digit, maxLength: 6 }));
    fc.assert(
      fc.property(pair, ([base, x, y]) => {
        const room = MAX_DECIMAL_DIGITS - (base.includes('.') ? base.length - base.indexOf('.') - 1 : 0);
        const extend = (tail: string) => {
          const t = tail.slice(0, room);
          return t === '' ? base : `${base}${base.includes('.') ? '' : '.'}${t}`;
        };
        const a = extend(x);
        const b = extend(y);
        expect(compare(a, b)).toBe(reference(a, b));
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    ['1.50', '1.5', 0],
    ['-0', '0', 0],
    ['-0.000', '0.0', 0],
    ['0', '-0.0', 0],
    ['100', '100.000000000000000000', 0],
    ['99.99', '100', -1],
    ['100.01', '100', 1],
    ['-5', '-10', 1],
    ['-10', '-5', -1],
    ['-0.1', '0', -1],
    ['0', '-0.1', 1],
    ['-1', '0.1', -1],
    ['0.000000000000000001', '0', 1],
    [d18, `${d18}.${d18}`, -1],
    [d19, `${d18}.${d18}`, 1],
    [`-${d19}`, '-1', -1],
    [`1${'0'.repeat(30)}`, `${'9'.repeat(30)}.9`, 1],
    ['10', '9.999999999999999999', 1],
    ['-10', '-9.999999999999999999', -1],
  ])('compareDecimal(%j, %j) is %d', (a, b, expected) => {
    expect(compare(a, b)).toBe(expected);
  });
});

describe('readNumeric', () => {
  it.each([
    [0, '0'],
    [12, '12'],
    [-5, '-5'],
    [-0, '0'],
    [Number.MAX_SAFE_INTEGER, '9007199254740991'],
    [Number.MIN_SAFE_INTEGER, '-9007199254740991'],
    ['12.50', '12.50'],
    ['-3', '-3'],
    ['-0', '-0'],
    ['0.5', '0.5'],
    [d19, d19],
    [`-${d19}.5`, `-${d19}.5`],
  ])('reads %j as %j', (value, expected) => {
    expect(readNumeric(value)).toBe(expected);
  });

  it.each([
    ['a fraction', 12.5],
    ['2^53', 2 ** 53],
    ['-(2^53)', -(2 ** 53)],
    ['1e21', 1e21],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['true', true],
    ['false', false],
    ['null', null],
    ['undefined', undefined],
    ['an object', { value: '1' }],
    ['an array', ['1']],
    ['"1e3"', '1e3'],
    ['"012"', '012'],
    ['"+1"', '+1'],
    ['" 1"', ' 1'],
    ['"1."', '1.'],
    ['""', ''],
    ['a 19-digit fraction', `1.${d19}`],
    ['a leading zero on a long integer', `0${d19}`],
  ])('is undefined for %s', (_name, value) => {
    expect(readNumeric(value)).toBeUndefined();
  });
});

describe('normalizeDecimal', () => {
  it.each([
    ['100.00', '100'],
    ['100', '100'],
    ['0.50', '0.5'],
    ['0.000', '0'],
    ['12.345000', '12.345'],
    ['10', '10'],
    ['-0.0', '0'],
    ['-1.50', '-1.5'],
    [`${d18}.${d18}`, `${d18}.${d18}`],
    ['0.000000000000000001', '0.000000000000000001'],
    ['1000000000000000', '1000000000000000'],
  ])('normalizes %j to %j', (input, expected) => {
    expect(normalizeDecimal(input)).toBe(expected);
  });

  it('keeps the value and gives one form for equal values', () => {
    fc.assert(
      fc.property(signedDecimal, fc.nat(20), (a, zeros) => {
        const n = normalizeDecimal(a);
        expect(isDecimalValue(n, true)).toBe(true);
        expect(compare(n, a)).toBe(0);
        expect(normalizeDecimal(rewrite(a, zeros))).toBe(n);
        expect(n).not.toMatch(/\.\d*0$|^-0$/);
      }),
      { numRuns: 1000 },
    );
  });
});
