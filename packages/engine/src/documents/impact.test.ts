// analyzeImpact: one entry for every kind; identical texts never widen; the examples end to end.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeImpact } from './impact.ts';
import { DOCUMENT_KINDS } from './kinds.ts';

const POLICY = JSON.stringify({
  schema: 'tollgate/policy@1',
  default: 'deny',
  rules: [{ id: 'refund-auto', actions: ['refund.issue'], amount: { currency: 'USD', lte: '100' }, effect: 'allow' }],
});

describe('analyzeImpact', () => {
  it('says a policy edit widens by the calls it decides differently', () => {
    const widened = 'refund.issue, amount in (100, 250] USD: deny -> allow (widens)';
    expect(analyzeImpact('policy', POLICY, POLICY.replace('"lte":"100"', '"lte":"250"'))).toEqual({
      widensSecurity: true,
      widenedSubjects: [widened],
      changes: [widened],
    });
  });

  it('passes the organisation default lifetime and pin impacts on', () => {
    const held = JSON.stringify({
      schema: 'tollgate/policy@1',
      default: 'deny',
      rules: [{ id: 'r', actions: ['a.b'], effect: 'require_approval', approvers: { roles: ['owner'] }, approval_ttl_seconds: 3600 }],
    });
    const open = held.replace(',"approval_ttl_seconds":3600', '');
    expect(analyzeImpact('policy', held, open).widenedSubjects).toEqual(['rules/r approval_ttl_seconds 3600 removed (org default 86400)']);
    expect(analyzeImpact('policy', held, open, { defaultApprovalTtlSeconds: 600 }).widensSecurity).toBe(false);
    const set = (sequence: number) => JSON.stringify({ name: 'S', status: 'active', pins: [{ document: 'colang/a.co', sequence }] });
    expect(
      analyzeImpact('ruleset', set(1), set(2), { impactOfPin: () => ({ widensSecurity: false, widenedSubjects: [] }) }).widensSecurity,
    ).toBe(false);
  });

  it.each([
    ['sheet', 'rules:\n  - action: a\n    at_most: 1\n', 'rules:\n  - action: a\n    at_most: 2\n', ['rules/a at_most 1 -> 2']],
    ['colang', 'define flow a\n  refuse\n', '', ['flows/a removed']],
    ['catalogue', 'tools: []\n', 'tools:\n  - {name: a, action: a.b, kind: write}\n', ['tools/a added']],
    [
      'agent',
      'catalogue: catalogue.yaml\npolicy: policies/p.policy.json\ndelegation: {actions: [a.b]}\n',
      'catalogue: catalogue.yaml\npolicy: policies/p.policy.json\ndelegation: {actions: [a.*]}\n',
      ['delegation actions + a.*'],
    ],
    ['settings', 'approved_rulesets_only: true\n', 'approved_rulesets_only: false\n', ['approved_rulesets_only true -> false']],
  ] as const)('dispatches a %s', (kind, before, after, expected) => {
    expect(analyzeImpact(kind, before, after).widenedSubjects).toEqual(expected);
  });

  it('an example suite widens nothing, even when it adds calls it expects allowed', () => {
    const suite = (examples: unknown[]) => JSON.stringify({ tools: [{ name: 't', action: 'a.b' }], examples });
    const allowed = { name: 'x', tool: 't', arguments: {}, expect: { decision: 'allow' } };
    expect(analyzeImpact('examples', undefined, suite([allowed]))).toEqual({ widensSecurity: false, widenedSubjects: [] });
    expect(analyzeImpact('examples', suite([]), suite([allowed, allowed])).widensSecurity).toBe(false);
  });

  it('an identical text never widens, whatever the kind and text', () => {
    fc.assert(
      fc.property(fc.constantFrom(...DOCUMENT_KINDS), fc.oneof(fc.string(), fc.constant(POLICY)), (kind, text) => {
        expect(analyzeImpact(kind, text, text)).toEqual({ widensSecurity: false, widenedSubjects: [] });
      }),
    );
  });

  it('a text that does not load never widens', () => {
    for (const kind of DOCUMENT_KINDS) expect(analyzeImpact(kind, undefined, '{[').widensSecurity).toBe(false);
  });
});
