// Unit tests of the hash router's parsing.
import { describe, expect, it } from 'vitest';
import { hrefOf, parseRoute } from './router.ts';

describe('parseRoute', () => {
  it('reads a document id as one encoded segment', () => {
    expect(parseRoute('#/documents/policies%2Frefunds.policy.json')).toEqual({
      page: 'documents',
      document: 'policies/refunds.policy.json',
    });
  });
  it('opens a document in the editor', () => {
    expect(parseRoute('#/edit/policies%2Frefunds.policy.json')).toEqual({ page: 'edit', document: 'policies/refunds.policy.json' });
    expect(parseRoute('#/edit')).toEqual({ page: 'documents', document: null });
  });
  it('defaults to the documents page', () => {
    expect(parseRoute('')).toEqual({ page: 'documents', document: null });
  });
  it('opens a sheet on the Rules page', () => {
    expect(parseRoute('#/rules/sheets%2Fsupport.rules.yaml')).toEqual({ page: 'rules', document: 'sheets/support.rules.yaml' });
    expect(hrefOf({ page: 'rules', document: 'sheets/support.rules.yaml' })).toBe('#/rules/sheets%2Fsupport.rules.yaml');
    expect(parseRoute('#/rules')).toEqual({ page: 'documents', document: null });
  });
  it('opens the rule-sets list and one set, its id as one encoded segment', () => {
    expect(parseRoute('#/rulesets')).toEqual({ page: 'rulesets', ruleset: null });
    expect(parseRoute('#/gateways')).toEqual({ page: 'gateways' });
    expect(hrefOf({ page: 'gateways' })).toBe('#/gateways');
    expect(parseRoute('#/rulesets/rulesets%2Fsupport.ruleset.json')).toEqual({
      page: 'rulesets',
      ruleset: 'rulesets/support.ruleset.json',
    });
    expect(hrefOf({ page: 'rulesets', ruleset: 'rulesets/support.ruleset.json' })).toBe('#/rulesets/rulesets%2Fsupport.ruleset.json');
  });
  it('leaves a page its own query (the inbox filters)', () => {
    expect(parseRoute('#/approvals?tool=issue_refund&age=1h')).toEqual({ page: 'approvals', tab: 'pending' });
    expect(parseRoute('#/approvals/decided?agent=support-bot')).toEqual({ page: 'approvals', tab: 'decided' });
  });
  it('round-trips every page', () => {
    for (const hash of [
      '#/approvals',
      '#/approvals/decided',
      '#/playground',
      '#/decisions',
      '#/upstreams',
      '#/members',
      '#/documents/a%2Fb',
      '#/edit/sheets%2Fsupport.rules.yaml',
    ])
      expect(hrefOf(parseRoute(hash))).toBe(hash);
  });
});
