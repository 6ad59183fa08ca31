import { describe, expect, it } from 'vitest';
import { flowText, readFlowValue, scalarOf, WrittenNumber } from './yaml-flow-text.ts';

describe('flowText', () => {
  it('prints lists and mappings as flow collections on one line', () => {
    expect(flowText(['a', 'b'])).toBe('[a, b]');
    expect(flowText({ amount_over: new WrittenNumber('200.50'), tier_is: 'gold' })).toBe('{amount_over: 200.50, tier_is: gold}');
    expect(flowText('x'.repeat(200))).toBe('x'.repeat(200));
  });

  it('quotes a string only where YAML would read it as something else', () => {
    expect(flowText('Close this account?')).toBe('Close this account?');
    expect(flowText('200')).toBe('"200"');
    expect(flowText('true')).toBe('"true"');
    expect(flowText('a: b # c')).toBe('"a: b # c"');
  });

  it('escapes tabs and line breaks in double quotes, since a sheet refuses tabs and values past their line', () => {
    expect(flowText('a\tb')).toBe('"a\\tb"');
    expect(flowText('two\nlines')).toBe('"two\\nlines"');
  });
});

describe('scalarOf', () => {
  it('reads numbers as their written digits, booleans, and strings', () => {
    expect(scalarOf(' 99.50 ')).toEqual(new WrittenNumber('99.50'));
    expect(scalarOf('1e3')).toEqual(new WrittenNumber('1e3'));
    expect(scalarOf('true')).toBe(true);
    expect(scalarOf('gold')).toBe('gold');
    expect(scalarOf('"200"')).toBe('200');
    expect(scalarOf('[a')).toBe('[a');
  });
});

describe('readFlowValue', () => {
  it('reads a check with its numbers exact', () => {
    expect(readFlowValue('{field: price, at_most: 10.10}')).toEqual({
      ok: true,
      value: { field: 'price', at_most: new WrittenNumber('10.10') },
    });
  });

  it('refuses what is not one YAML value', () => {
    expect(readFlowValue('{field: price')).toEqual({ ok: false, reason: expect.stringMatching(/^not YAML/) });
    expect(readFlowValue('')).toEqual({ ok: false, reason: expect.stringContaining('a check is a mapping') });
  });
});
