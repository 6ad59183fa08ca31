// Agent impact: the delegation widened, disclosure raised, other documents named; narrowings unflagged.
import { describe, expect, it } from 'vitest';
import { analyzeAgentImpact } from './impact-agent.ts';

const RUNNING = `catalogue: catalogue.yaml
rulebook: sheets/shop.rules.yaml
policy: policies/refunds.policy.json
delegation:
  actions: [refund.issue, orders.*]
  spending_limit: {amount: "500.00", currency: USD}
  valid_until: 2026-01-01T00:00:00Z
disclosure: rule
`;

function subjects(after: string): string[] {
  const impact = analyzeAgentImpact(RUNNING, after);
  expect(impact.widensSecurity).toBe(impact.widenedSubjects.length > 0);
  return impact.widenedSubjects;
}

const swap = (from: string, to: string) => {
  if (!RUNNING.includes(from)) throw new Error(`no ${from}`);
  return RUNNING.replace(from, to);
};

describe('agent impact: widenings', () => {
  it.each([
    [
      'an action delegated',
      swap('[refund.issue, orders.*]', '[refund.issue, orders.*, payouts.send]'),
      ['delegation actions + payouts.send'],
    ],
    ['an action broadened', swap('[refund.issue, orders.*]', '[refund.*, orders.*]'), ['delegation actions + refund.*']],
    ['the spending limit raised', swap('"500.00"', '"500.01"'), ['delegation spending_limit 500.00 -> 500.01']],
    [
      'the spending limit removed',
      swap('  spending_limit: {amount: "500.00", currency: USD}\n', ''),
      ['delegation spending_limit removed'],
    ],
    ['the spending limit in another currency', swap('currency: USD', 'currency: EUR'), ['delegation spending_limit currency USD -> EUR']],
    [
      'the delegation extended',
      swap('2026-01-01T00:00:00Z', '2026-01-01T00:00:00-01:00'),
      ['delegation valid_until 2026-01-01T00:00:00Z -> 2026-01-01T00:00:00-01:00'],
    ],
    ['the delegation made endless', swap('  valid_until: 2026-01-01T00:00:00Z\n', ''), ['delegation valid_until removed']],
    ['disclosure raised', swap('disclosure: rule', 'disclosure: conditions'), ['disclosure rule -> conditions']],
    ['the rulebook removed', swap('rulebook: sheets/shop.rules.yaml\n', ''), ['rulebook sheets/shop.rules.yaml removed']],
    ['another rulebook', swap('sheets/shop.rules.yaml', 'colang/shop.co'), ['rulebook sheets/shop.rules.yaml -> colang/shop.co']],
    [
      'another catalogue',
      swap('catalogue: catalogue.yaml', 'catalogue: catalogues/big.yaml'),
      ['catalogue catalogue.yaml -> catalogues/big.yaml'],
    ],
    [
      'a rule set in place of the policy',
      swap('policy: policies/refunds.policy.json', 'ruleset: rulesets/support.ruleset.json'),
      ['ruleset policies/refunds.policy.json -> rulesets/support.ruleset.json'],
    ],
  ])('%s', (_name, after, expected) => {
    expect(subjects(after)).toEqual(expected);
  });
});

describe('agent impact: narrowings and identity are never flagged', () => {
  it.each([
    ['identical', RUNNING],
    ['an action withdrawn', swap('[refund.issue, orders.*]', '[orders.read]')],
    ['the spending limit lowered, or written with more zeros', swap('"500.00"', '"500"')],
    ['the delegation shortened', swap('2026-01-01T00:00:00Z', '2025-12-01T00:00:00Z')],
    ['disclosure lowered', swap('disclosure: rule', 'disclosure: none')],
    ['disclosure left to its default, rule', swap('disclosure: rule\n', '')],
  ])('%s', (_name, after) => {
    expect(subjects(after)).toEqual([]);
  });

  it('a first agent delegates each of its actions; a text that does not load widens nothing', () => {
    expect(analyzeAgentImpact(undefined, RUNNING)).toEqual({
      widensSecurity: true,
      widenedSubjects: ['delegation actions + refund.issue', 'delegation actions + orders.*'],
    });
    expect(analyzeAgentImpact(RUNNING, 'catalogue: [').widensSecurity).toBe(false);
    expect(analyzeAgentImpact(RUNNING, RUNNING.replace('disclosure: rule', 'disclosure: all')).widensSecurity).toBe(false);
  });

  it('adding a rulebook to an agent that had none is not flagged', () => {
    const without = swap('rulebook: sheets/shop.rules.yaml\n', '');
    expect(analyzeAgentImpact(without, RUNNING).widenedSubjects).toEqual([]);
  });
});
