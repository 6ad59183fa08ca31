// Action patterns: containment, and what a list newly reaches.
import { describe, expect, it } from 'vitest';
import { patternCovers, uncoveredPatterns } from './action-patterns.ts';

describe('patternCovers', () => {
  it.each([
    ['*', 'anything.at.all', true],
    ['*', '*', true],
    ['refund.*', 'refund.issue', true],
    ['refund.*', 'refund.issue.*', true],
    ['refund.*', 'refund.*', true],
    ['refund.*', 'refund', false],
    ['refund.*', '*', false],
    ['refund.issue', 'refund.*', false],
    ['refund.issue', 'refund.issue', true],
    ['refund.i*', 'refund.issue', false],
  ])('%s covers %s: %s', (outer, inner, expected) => {
    expect(patternCovers(outer, inner)).toBe(expected);
  });

  it('uncoveredPatterns lists what a list newly reaches', () => {
    expect(uncoveredPatterns(['orders.*'], ['orders.read', 'payouts.send', '*'])).toEqual(['payouts.send', '*']);
  });
});
