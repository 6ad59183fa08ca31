// The agent format: a valid agent, defaults, and each refusal with its code, path and line.
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../source/diagnostic.ts';
import { readAgent } from './agent.ts';

const SUPPORT = `# The support agent.
catalogue: catalogues/shop.yaml
rulebook: sheets/shop.rules.yaml
policy: policies/refunds.policy.json
delegation:
  actions: [refund.issue, orders.*]
  spending_limit: {amount: "500.00", currency: USD}
  valid_until: 2026-01-01T00:00:00+01:00
disclosure: conditions
`;

function brief(text: string, exists?: (id: string) => boolean) {
  const r = readAgent(text, exists ? { exists } : undefined);
  if (r.ok) throw new Error('expected problems');
  return r.problems.map((p: Diagnostic) => ({ code: p.code, path: p.path, line: p.line }));
}

describe('readAgent', () => {
  it('reads an agent with every member', () => {
    expect(readAgent(SUPPORT)).toEqual({
      ok: true,
      problems: [],
      agent: {
        catalogue: 'catalogues/shop.yaml',
        rulebook: 'sheets/shop.rules.yaml',
        policy: 'policies/refunds.policy.json',
        delegation: {
          actions: ['refund.issue', 'orders.*'],
          spending_limit: { amount: '500.00', currency: 'USD' },
          valid_until: '2026-01-01T00:00:00+01:00',
        },
        disclosure: 'conditions',
      },
    });
  });

  it('defaults disclosure to rule, and takes a rule set in place of a policy', () => {
    const r = readAgent('catalogue: catalogue.yaml\nruleset: rulesets/support.ruleset.json\ndelegation:\n  actions: ["*"]\n');
    expect(r.ok && r.agent).toEqual({
      catalogue: 'catalogue.yaml',
      ruleset: 'rulesets/support.ruleset.json',
      delegation: { actions: ['*'] },
      disclosure: 'rule',
    });
  });

  it('names exactly one of policy and ruleset', () => {
    const both = SUPPORT.replace(
      'policy: policies/refunds.policy.json',
      'policy: policies/refunds.policy.json\nruleset: rulesets/a.ruleset.json',
    );
    expect(brief(both)).toEqual([{ code: 'POLICY_OR_RULESET', path: '', line: 2 }]);
    const neither = SUPPORT.replace('policy: policies/refunds.policy.json\n', '');
    expect(brief(neither)).toEqual([{ code: 'POLICY_OR_RULESET', path: '', line: 2 }]);
  });

  it.each([
    ['catalogue: catalogues/shop.yaml', 'catalogue: sheets/shop.rules.yaml', '/catalogue', 2],
    ['rulebook: sheets/shop.rules.yaml', 'rulebook: policies/x.policy.json', '/rulebook', 3],
    ['policy: policies/refunds.policy.json', 'policy: rulesets/x.ruleset.json', '/policy', 4],
  ])('refuses a reference of the wrong kind (%s -> %s)', (from, to, path, line) => {
    expect(brief(SUPPORT.replace(from, to))).toEqual([{ code: 'WRONG_DOCUMENT_KIND', path, line }]);
  });

  it('takes a Colang rulebook, and no rulebook at all', () => {
    expect(readAgent(SUPPORT.replace('sheets/shop.rules.yaml', 'colang/shop.co')).ok).toBe(true);
    expect(readAgent(SUPPORT.replace('rulebook: sheets/shop.rules.yaml\n', '')).ok).toBe(true);
  });

  it('asks the store, when given one, whether the named documents exist', () => {
    expect(brief(SUPPORT, (id) => id !== 'sheets/shop.rules.yaml')).toEqual([{ code: 'REFERENCE_NOT_FOUND', path: '/rulebook', line: 3 }]);
  });

  it('refuses a bad delegation, member by member, at its line', () => {
    const text = `catalogue: catalogue.yaml
policy: policies/p.policy.json
delegation:
  actions: [Refund, tollgate.admin, orders.*, orders.*]
  spending_limit: {amount: 500, currency: usd, period: day}
  valid_until: 2026-13-01T00:00:00Z
  scope: all
disclosure: everything
`;
    expect(brief(text)).toEqual([
      { code: 'INVALID_ACTION_PATTERN', path: '/delegation/actions/0', line: 4 },
      { code: 'RESERVED_NAMESPACE', path: '/delegation/actions/1', line: 4 },
      { code: 'DUPLICATE_VALUE', path: '/delegation/actions/3', line: 4 },
      { code: 'INVALID_DECIMAL', path: '/delegation/spending_limit/amount', line: 5 },
      { code: 'INVALID_CURRENCY', path: '/delegation/spending_limit/currency', line: 5 },
      { code: 'UNKNOWN_MEMBER', path: '/delegation/spending_limit/period', line: 5 },
      { code: 'INVALID_DATE_TIME', path: '/delegation/valid_until', line: 6 },
      { code: 'UNKNOWN_MEMBER', path: '/delegation/scope', line: 7 },
      { code: 'INVALID_VALUE', path: '/disclosure', line: 8 },
    ]);
  });

  it('refuses a missing catalogue, delegation and actions, and an empty actions list', () => {
    expect(brief('policy: policies/p.policy.json\n')).toEqual([
      { code: 'MISSING_MEMBER', path: '', line: 1 },
      { code: 'MISSING_MEMBER', path: '', line: 1 },
    ]);
    expect(brief('catalogue: catalogue.yaml\npolicy: policies/p.policy.json\ndelegation: {}\n')).toEqual([
      { code: 'MISSING_MEMBER', path: '/delegation', line: 3 },
    ]);
    expect(brief('catalogue: catalogue.yaml\npolicy: policies/p.policy.json\ndelegation:\n  actions: []\n')).toEqual([
      { code: 'EMPTY_LIST', path: '/delegation/actions', line: 4 },
    ]);
  });

  it('refuses YAML that does not load, and a document that is not a mapping', () => {
    expect(brief('catalogue: [a\n')).toEqual([{ code: 'NOT_YAML', path: '', line: 2 }]);
    expect(brief('- catalogue.yaml\n')).toEqual([{ code: 'INVALID_TYPE', path: '', line: 1 }]);
    expect(brief('')).toEqual([{ code: 'INVALID_TYPE', path: '', line: 1 }]);
  });

  it('takes a rule-set version to run, only beside a rule set, as a positive integer that exists', () => {
    const base = 'catalogue: catalogue.yaml\nruleset: rulesets/s.ruleset.json\ndelegation:\n  actions: [a.b]\n';
    const r = readAgent(`${base}ruleset_version: 2\n`);
    expect(r.ok && r.agent.ruleset_version).toBe(2);
    expect(brief(`${base}ruleset_version: 0\n`)).toEqual([{ code: 'INVALID_VALUE', path: '/ruleset_version', line: 5 }]);
    const policy = 'catalogue: catalogue.yaml\npolicy: policies/p.policy.json\ndelegation:\n  actions: [a.b]\nruleset_version: 2\n';
    expect(brief(policy)).toEqual([{ code: 'INVALID_VALUE', path: '/ruleset_version', line: 5 }]);
    const missing = readAgent(`${base}ruleset_version: 3\n`, { exists: (_id, sequence) => sequence === undefined || sequence < 3 });
    expect(missing.ok ? [] : missing.problems.map((p) => [p.code, p.message])).toEqual([
      ['REFERENCE_NOT_FOUND', 'version 3 of rulesets/s.ruleset.json does not exist'],
    ]);
  });
});
