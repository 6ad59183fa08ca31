// Rule coverage: pattern containment, each dimension's changes marked grows/shrinks, and ruleWithin.
import { describe, expect, it } from 'vitest';
import type { PolicyRule } from '../policy/types.ts';
import { coverageChanges, patternCovers, ruleWithin, uncoveredPatterns } from './policy-coverage.ts';

const base: PolicyRule = { id: 'r', actions: ['refund.issue'], effect: 'allow' };

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

describe('coverageChanges', () => {
  it('marks each change as growing, shrinking or both', () => {
    const before: PolicyRule = {
      ...base,
      tools: ['a'],
      amount: { currency: 'USD', gt: '10', lte: '100' },
      when: [
        { path: '/items/*/sku', for: 'all', starts_with: ['A-'] },
        { path: '/env', eq: 'dev' },
      ],
    };
    const after: PolicyRule = {
      ...base,
      actions: ['refund.*'],
      tools: ['b'],
      amount: { currency: 'USD', gte: '10', lte: '50' },
      when: [
        { path: '/items/*/sku', for: 'any', starts_with: ['B-'] },
        { path: '/region', eq: 'eu' },
      ],
    };
    expect(coverageChanges(before, after)).toEqual([
      { subject: 'actions + refund.*', grows: true, shrinks: false },
      { subject: 'tools + b', grows: true, shrinks: false },
      { subject: 'tools - a', grows: false, shrinks: true },
      { subject: 'amount gt 10 -> gte 10', grows: true, shrinks: false },
      { subject: 'amount lte 100 -> 50', grows: false, shrinks: true },
      { subject: 'when /items/*/sku for all -> any', grows: true, shrinks: false },
      { subject: 'when /items/*/sku starts_with + "B-"', grows: true, shrinks: false },
      { subject: 'when /items/*/sku starts_with - "A-"', grows: false, shrinks: true },
      { subject: 'when /env dropped', grows: true, shrinks: false },
      { subject: 'when /region added', grows: false, shrinks: true },
    ]);
  });

  it('reads two conditions at one path as dropped and added, not as one changed', () => {
    const before: PolicyRule = {
      ...base,
      when: [
        { path: '/n', gt: '1' },
        { path: '/n', lt: '9' },
      ],
    };
    const after: PolicyRule = { ...base, when: [{ path: '/n', gt: '2' }] };
    expect(coverageChanges(before, after).map((c) => c.subject)).toEqual(['when /n dropped', 'when /n dropped', 'when /n added']);
  });

  it('sees nothing when only the order of conditions changed', () => {
    const when = [
      { path: '/a', eq: 1 },
      { path: '/b', eq: 2 },
    ];
    expect(coverageChanges({ ...base, when }, { ...base, when: [...when].reverse() })).toEqual([]);
  });
});

describe('ruleWithin', () => {
  const held: PolicyRule = {
    id: 'h',
    actions: ['refund.issue'],
    tools: ['t'],
    amount: { currency: 'USD', gt: '100', lte: '500' },
    when: [{ path: '/x', eq: 1 }],
    effect: 'require_approval',
  };
  it.each<[string, PolicyRule, boolean]>([
    ['a broad allow with no amount or conditions', { id: 'a', actions: ['refund.*'], effect: 'allow' }, true],
    [
      'an allow with an amount (unknown amounts escape it)',
      { id: 'a', actions: ['refund.*'], amount: { currency: 'USD', gte: '0' }, effect: 'allow' },
      false,
    ],
    ['an allow with conditions', { id: 'a', actions: ['refund.*'], when: [{ path: '/x', eq: 1 }], effect: 'allow' }, false],
    [
      'a deny with wider bounds and a shared condition',
      { id: 'd', actions: ['*'], amount: { currency: 'USD', gt: '50' }, when: [{ path: '/x', eq: 1 }], effect: 'deny' },
      true,
    ],
    ['a deny in another currency', { id: 'd', actions: ['*'], amount: { currency: 'EUR', gt: '50' }, effect: 'deny' }, false],
    ['a deny with a condition the rule lacks', { id: 'd', actions: ['*'], when: [{ path: '/y', eq: 1 }], effect: 'deny' }, false],
    ['a rule for other tools', { id: 'd', actions: ['*'], tools: ['u'], effect: 'deny' }, false],
    ['a rule for fewer actions', { id: 'd', actions: ['refund.other'], effect: 'deny' }, false],
  ])('within %s: %s', (_name, outer, expected) => {
    expect(ruleWithin(held, outer)).toBe(expected);
  });
});
