// The gate on the demo agent's parts: catalogue, delegation (actions, validity, spending limit), amounts,
// the rulebook's refusals and confirmations, the policy or every pinned policy (deny anywhere wins).

import { describe, expect, it } from 'vitest';
import type { Delegation } from '../documents/agent.ts';
import { compilePolicy } from '../policy/compile.ts';
import type { Member } from '../policy/types.ts';
import { readCatalogue } from '../rulebook/catalogue.ts';
import { compileRules } from '../sheet/compile.ts';
import { type DecideCallInput, decideCall, type GatePolicy } from './decide-call.ts';

/** examples/refunds.policy.json, the seed's refunds policy. */
const REFUNDS = {
  schema: 'tollgate/policy@1',
  default: 'deny',
  rules: [
    { id: 'read-orders', actions: ['orders.read', 'orders.search'], effect: 'allow' },
    { id: 'refund-over-limit', actions: ['refund.issue'], amount: { currency: 'USD', gt: '1000' }, effect: 'deny' },
    {
      id: 'refund-approval',
      actions: ['refund.issue'],
      amount: { currency: 'USD', gt: '100', lte: '1000' },
      effect: 'require_approval',
      approvers: { roles: ['owner', 'admin', 'approver'] },
      approval_ttl_seconds: 14400,
    },
    { id: 'refund-auto', actions: ['refund.issue'], amount: { currency: 'USD', lte: '100' }, effect: 'allow' },
    { id: 'never', actions: ['payouts.*', 'customers.export'], effect: 'deny' },
  ],
};
const CATALOGUE = `tools:
  - { name: read_order, action: orders.read, kind: read }
  - { name: issue_refund, action: refund.issue, kind: write, amount: { pointer: /amount, currency: USD } }
  - { name: send_payout, action: payouts.send, kind: write, amount: { pointer: /amount, currency: USD } }
  - { name: export_customers, action: customers.export, kind: write }
  - { name: charge_eur, action: refund.issue, kind: write, amount: { pointer: /amount, currency: EUR } }
`;
const SHEET = `rules:
  - action: issue_refund
    at_most: 2
  - action: send_payout
    requires_confirmation: true
  - action: export_customers
    never: true
`;
const catalogue = (() => {
  const r = readCatalogue(CATALOGUE, 'yaml');
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.catalogue;
})();
const rules = (() => {
  const r = compileRules(SHEET, 'sheet');
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r;
})();
function policy(doc: unknown, document = 'policies/refunds.policy.json', sequence = 1): GatePolicy {
  const r = compilePolicy(doc);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return { document, sequence, policy: r.policy };
}
const OWNER = '00000000-0000-4000-8000-000000000001';
const ADMIN = '00000000-0000-4000-8000-000000000002';
const APPROVER = '00000000-0000-4000-8000-000000000003';
const members: Member[] = [
  { id: OWNER, role: 'owner', signing: true },
  { id: ADMIN, role: 'admin', signing: true },
  { id: APPROVER, role: 'approver', signing: true },
  { id: '00000000-0000-4000-8000-000000000004', role: 'developer', signing: true },
  { id: '00000000-0000-4000-8000-000000000005', role: 'viewer', signing: true },
];
const NOW = new Date('2026-01-01T00:00:00Z');
const delegation: Delegation = {
  actions: ['orders.*', 'refund.issue', 'payouts.send', 'customers.*'],
  spending_limit: { amount: '5000', currency: 'USD' },
};

function decide(call: DecideCallInput['call'], over: Partial<DecideCallInput> = {}) {
  return decideCall({
    catalogue,
    rulebook: rules.rulebook,
    overlay: rules.overlay,
    policies: [policy(REFUNDS)],
    delegation,
    members,
    defaultApprovalTtlSeconds: 86400,
    now: NOW,
    call,
    ...over,
  });
}

describe('decideCall', () => {
  it('holds a 500 USD refund for the owner, admin and approver, with the rule TTL', () => {
    const d = decide({ tool: 'issue_refund', arguments: { amount: '500' } });
    expect(d).toMatchObject({
      decision: 'require_approval',
      rule: 'refund-approval',
      action: 'refund.issue',
      amount: '500',
      currency: 'USD',
    });
    expect(d.approval?.approvers.sort()).toEqual([OWNER, ADMIN, APPROVER].sort());
    expect(d.approval?.ttl_seconds).toBe(14400);
    expect(d.approval?.expires_at).toBe('2026-01-01T04:00:00.000Z');
    expect(d.approval?.policy).toEqual({ document: 'policies/refunds.policy.json', sequence: 1 });
    expect(d.notice).toMatchObject({ decision: 'require_approval', rule: 'refund-approval' });
  });

  it('allows 50, denies 5000 by the policy and 5000.01 by the spending limit (exact decimals)', () => {
    expect(decide({ tool: 'issue_refund', arguments: { amount: '50' } })).toMatchObject({ decision: 'allow', rule: 'refund-auto' });
    expect(decide({ tool: 'issue_refund', arguments: { amount: 5000 } })).toMatchObject({ decision: 'deny', rule: 'refund-over-limit' });
    expect(decide({ tool: 'issue_refund', arguments: { amount: '5000.01' } })).toMatchObject({
      decision: 'deny',
      code: 'DELEGATION_SPENDING_LIMIT',
    });
    expect(decide({ tool: 'issue_refund', arguments: { amount: '5000.000' } })).toMatchObject({
      decision: 'deny',
      rule: 'refund-over-limit',
    });
  });

  it('refuses unknown tools, actions outside the delegation and expired delegations', () => {
    expect(decide({ tool: 'nope', arguments: {} })).toMatchObject({ decision: 'deny', code: 'TOOL_UNKNOWN', rule: null, action: null });
    expect(decide({ tool: 'read_order', arguments: {} }, { delegation: { actions: ['refund.*'] } })).toMatchObject({
      decision: 'deny',
      code: 'DELEGATION_ACTION',
    });
    expect(
      decide({ tool: 'read_order', arguments: {} }, { delegation: { actions: ['orders.*'], valid_until: '2025-12-31T23:59:59Z' } }),
    ).toMatchObject({ decision: 'deny', code: 'DELEGATION_EXPIRED' });
  });

  it('refuses invalid amounts and calls the spending limit cannot price', () => {
    expect(decide({ tool: 'issue_refund', arguments: { amount: '-5' } })).toMatchObject({ decision: 'deny', code: 'INVALID_AMOUNT' });
    expect(decide({ tool: 'issue_refund', arguments: {} })).toMatchObject({ decision: 'deny', code: 'DELEGATION_SPENDING_LIMIT' });
    expect(decide({ tool: 'export_customers', arguments: {} })).toMatchObject({ decision: 'deny', code: 'DELEGATION_SPENDING_LIMIT' });
    expect(decide({ tool: 'charge_eur', arguments: { amount: '1' } })).toMatchObject({
      decision: 'deny',
      code: 'DELEGATION_SPENDING_LIMIT',
    });
    // Without a limit, a tool with no amount reaches the rulebook.
    expect(decide({ tool: 'export_customers', arguments: {} }, { delegation: { actions: ['*'] } })).toMatchObject({
      decision: 'deny',
      code: 'never',
    });
  });

  it('asks for confirmation, then lets the policy decide', () => {
    const c = decide({ tool: 'send_payout', arguments: { amount: '10' } });
    expect(c).toMatchObject({ decision: 'confirm', code: 'CONFIRMATION_REQUIRED', rule: 'send_payout' });
    expect(c.confirmation).toBeTruthy();
    expect(c.notice.confirmation).toBe(c.confirmation);
    expect(decide({ tool: 'send_payout', arguments: { amount: '10' }, confirmed: true })).toMatchObject({
      decision: 'deny',
      rule: 'never',
    });
  });

  it('counts the session history for at_most', () => {
    const history = [
      { tool: 'issue_refund', arguments: { amount: '1' } },
      { tool: 'issue_refund', arguments: { amount: '1' } },
    ];
    expect(decide({ tool: 'issue_refund', arguments: { amount: '1' }, history })).toMatchObject({
      decision: 'deny',
      code: 'at_most_exceeded',
    });
    expect(decide({ tool: 'issue_refund', arguments: { amount: '1' }, history: history.slice(1) })).toMatchObject({ decision: 'allow' });
  });

  it('judges every pinned policy: deny anywhere wins, then require_approval', () => {
    const allowAll = policy(
      { schema: 'tollgate/policy@1', default: 'deny', rules: [{ id: 'all', actions: ['*'], effect: 'allow' }] },
      'policies/open.policy.json',
      3,
    );
    const denyRefunds = policy(
      { schema: 'tollgate/policy@1', default: 'deny', rules: [{ id: 'no-refunds', actions: ['refund.*'], effect: 'deny' }] },
      'policies/closed.policy.json',
      2,
    );
    const held = decide({ tool: 'issue_refund', arguments: { amount: '500' } }, { policies: [allowAll, policy(REFUNDS)] });
    expect(held).toMatchObject({ decision: 'require_approval', rule: 'refund-approval' });
    expect(held.approval?.policy).toEqual({ document: 'policies/refunds.policy.json', sequence: 1 });
    expect(held.policies).toHaveLength(2);
    expect(
      decide({ tool: 'issue_refund', arguments: { amount: '50' } }, { policies: [allowAll, denyRefunds, policy(REFUNDS)] }),
    ).toMatchObject({
      decision: 'deny',
      rule: 'no-refunds',
    });
    expect(decide({ tool: 'issue_refund', arguments: { amount: '50' } }, { policies: [] })).toMatchObject({
      decision: 'deny',
      code: 'POLICY_MISSING',
    });
  });

  it('caps the approval lifetime by the delegation and resolves only eligible members', () => {
    const d = decide(
      { tool: 'issue_refund', arguments: { amount: '500' } },
      { delegation: { ...delegation, valid_until: '2026-01-01T01:00:00Z' }, members: members.filter((m) => m.role !== 'owner') },
    );
    expect(d.approval?.ttl_seconds).toBe(3600);
    expect(d.approval?.approvers.sort()).toEqual([ADMIN, APPROVER].sort());
    const nobody = decide({ tool: 'issue_refund', arguments: { amount: '500' } }, { members: members.filter((m) => m.role === 'viewer') });
    expect(nobody).toMatchObject({ decision: 'deny', code: 'NO_ELIGIBLE_APPROVER' });
  });

  it('tells the agent only what its disclosure level allows', () => {
    expect(decide({ tool: 'issue_refund', arguments: { amount: '500' } }, { disclosure: 'none' }).notice).toEqual({
      decision: 'require_approval',
    });
    expect(decide({ tool: 'nope', arguments: {} }, { disclosure: 'none' }).notice).toEqual({ decision: 'deny' });
    const c = decide({ tool: 'issue_refund', arguments: { amount: '500' } }, { disclosure: 'conditions' }).notice;
    expect(c.amount).toMatchObject({ currency: 'USD' });
  });
});
