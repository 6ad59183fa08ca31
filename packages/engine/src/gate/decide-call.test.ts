// The gate on the demo agent's parts: catalogue, delegation (actions, validity, spending limit), amounts,
// the rulebook's refusals and confirmations, the policy or every pinned policy (deny anywhere wins).

import { describe, expect, it } from 'vitest';
import refundsExample from '../../../../examples/refunds.policy.json' with { type: 'json' };
import type { Delegation } from '../documents/agent.ts';
import type { RuleStatus } from '../documents/ruleset.ts';
import { compilePolicy } from '../policy/compile.ts';
import type { Member, PolicyDocument } from '../policy/types.ts';
import { readCatalogue } from '../rulebook/catalogue.ts';
import { compileRules } from '../sheet/compile.ts';
import { type DecideCallInput, decideCall, type GatePolicy } from './decide-call.ts';

/** The reference refunds policy, as examples/ keeps it. */
const REFUNDS = refundsExample as PolicyDocument;
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

  it('denies a call whose upstream definition changed, after an unauthorized binding and before the delegation', () => {
    const changed = { tool: 'issue_refund', arguments: { amount: '50' }, definition: 'changed' as const };
    expect(decide(changed)).toMatchObject({ decision: 'deny', code: 'TOOL_DEFINITION_CHANGED', rule: null, action: 'refund.issue' });
    expect(decide(changed).summary).toContain('issue_refund');
    expect(decide({ ...changed, definition: 'authorized' })).toMatchObject({ decision: 'allow', rule: 'refund-auto' });
    expect(decide(changed, { unauthorizedTools: ['issue_refund'] })).toMatchObject({ code: 'TOOL_NOT_AUTHORIZED' });
    expect(decide(changed, { delegation: { actions: ['orders.*'] } })).toMatchObject({ code: 'TOOL_DEFINITION_CHANGED' });
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
      code: 'NEVER',
    });
  });

  it('asks for confirmation only of a call the policy would let through; a standing denial wins at once', () => {
    // The policy denies every payout: no one is asked to confirm a call that is then refused.
    expect(decide({ tool: 'send_payout', arguments: { amount: '10' } })).toMatchObject({ decision: 'deny', rule: 'never' });
    expect(decide({ tool: 'send_payout', arguments: { amount: '10' }, confirmed: true })).toMatchObject({
      decision: 'deny',
      rule: 'never',
    });
    // A payout the policy allows asks first, then lets the policy decide.
    const payouts = {
      ...REFUNDS,
      rules: [...REFUNDS.rules.filter((r) => r.id !== 'never'), { id: 'payouts', actions: ['payouts.send'], effect: 'allow' }],
    };
    const c = decide({ tool: 'send_payout', arguments: { amount: '10' } }, { policies: [policy(payouts)] });
    expect(c).toMatchObject({ decision: 'confirm', code: 'CONFIRMATION_REQUIRED', rule: 'send_payout' });
    expect(c.confirmation).toBeTruthy();
    expect(c.notice.confirmation).toBe(c.confirmation);
    expect(decide({ tool: 'send_payout', arguments: { amount: '10' }, confirmed: true }, { policies: [policy(payouts)] })).toMatchObject({
      decision: 'allow',
      rule: 'payouts',
    });
    // A call the policy holds for approval is confirmed first, then held.
    const held = {
      ...REFUNDS,
      rules: [
        ...REFUNDS.rules.filter((r) => r.id !== 'never'),
        { id: 'payouts', actions: ['payouts.send'], effect: 'require_approval', approvers: { roles: ['owner'] } },
      ],
    };
    expect(decide({ tool: 'send_payout', arguments: { amount: '10' } }, { policies: [policy(held)] }).decision).toBe('confirm');
  });

  it('counts the session history for at_most', () => {
    const history = [
      { tool: 'issue_refund', arguments: { amount: '1' } },
      { tool: 'issue_refund', arguments: { amount: '1' } },
    ];
    expect(decide({ tool: 'issue_refund', arguments: { amount: '1' }, history })).toMatchObject({
      decision: 'deny',
      code: 'AT_MOST_EXCEEDED',
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

  describe('observe windows', () => {
    const approvals = [{ name: 'launch', starts: '2025-12-31T00:00:00Z', ends: '2026-01-02T00:00:00Z', relax: 'approvals' as const }];
    const denials = [{ name: 'shadow', starts: '2025-12-31T00:00:00Z', ends: '2026-01-02T00:00:00Z', relax: 'denials' as const }];
    const refund = (amount: string) => ({ tool: 'issue_refund', arguments: { amount } });

    it('relaxes require_approval into allow, with no approval, and says what it would have been', () => {
      const d = decide(refund('500'), { observeWindows: approvals });
      expect(d).toMatchObject({ decision: 'allow', rule: 'refund-approval', approval: null });
      expect(d.observed).toEqual({ window: 'launch', would_have_been: 'require_approval' });
      expect(d.notice).toMatchObject({ decision: 'allow', observed: { window: 'launch', would_have_been: 'require_approval' } });
      expect(d.summary).toContain('require_approval');
    });

    it('does nothing outside the window, and an approvals window leaves denials alone', () => {
      const past = [{ ...approvals[0], starts: '2025-01-01T00:00:00Z', ends: '2025-06-01T00:00:00Z' }] as typeof approvals;
      const outside = decide(refund('500'), { observeWindows: past });
      expect(outside).toMatchObject({ decision: 'require_approval' });
      expect(outside.observed).toBeUndefined();
      // The window's end is exclusive.
      const ended = [{ ...approvals[0], ends: '2026-01-01T00:00:00Z' }] as typeof approvals;
      expect(decide(refund('500'), { observeWindows: ended }).decision).toBe('require_approval');
      const denied = decide(refund('2000'), { observeWindows: approvals });
      expect(denied).toMatchObject({ decision: 'deny', rule: 'refund-over-limit' });
      expect(denied.observed).toBeUndefined();
      expect(
        decide({ tool: 'export_customers', arguments: {} }, { observeWindows: approvals, delegation: { actions: ['*'] } }),
      ).toMatchObject({ decision: 'deny', code: 'NEVER' });
      expect(decide(refund('50'), { observeWindows: approvals }).observed).toBeUndefined();
    });

    it('relaxes policy and rulebook denials in a denials window', () => {
      const policyDeny = decide(refund('2000'), { observeWindows: denials });
      expect(policyDeny).toMatchObject({
        decision: 'allow',
        rule: 'refund-over-limit',
        observed: { window: 'shadow', would_have_been: 'deny' },
      });
      expect(decide(refund('500'), { observeWindows: denials })).toMatchObject({
        decision: 'allow',
        observed: { would_have_been: 'require_approval' },
      });
      const never = decide(
        { tool: 'export_customers', arguments: {} },
        {
          observeWindows: denials,
          delegation: { actions: ['*'] },
          policies: [policy({ schema: 'tollgate/policy@1', default: 'deny', rules: [{ id: 'all', actions: ['*'], effect: 'allow' }] })],
        },
      );
      expect(never).toMatchObject({ decision: 'allow', code: 'NEVER', observed: { window: 'shadow', would_have_been: 'deny' } });
      const history = [refund('1'), refund('1')];
      expect(decide({ ...refund('1'), history }, { observeWindows: denials })).toMatchObject({
        decision: 'allow',
        code: 'AT_MOST_EXCEEDED',
        observed: { would_have_been: 'deny' },
      });
      // A confirmation is not a denial: it still asks.
      expect(decide({ tool: 'send_payout', arguments: { amount: '10' } }, { observeWindows: denials }).decision).toBe('confirm');
    });

    it('never relaxes a guard rule', () => {
      const guarded = {
        ...REFUNDS,
        rules: REFUNDS.rules.map((r) => (r.id === 'refund-approval' ? { ...r, guard: true } : r)),
      };
      for (const windows of [approvals, denials]) {
        const d = decide(refund('500'), { observeWindows: windows, policies: [policy(guarded)] });
        expect(d).toMatchObject({ decision: 'require_approval', rule: 'refund-approval' });
        expect(d.approval).not.toBeNull();
        expect(d.observed).toBeUndefined();
      }
      // A relaxed denial elsewhere still leaves the guarded approval standing (and says so).
      const denyRefunds = policy(
        { schema: 'tollgate/policy@1', default: 'deny', rules: [{ id: 'no-refunds', actions: ['refund.*'], effect: 'deny' }] },
        'policies/closed.policy.json',
      );
      const both = decide(refund('500'), { observeWindows: denials, policies: [denyRefunds, policy(guarded)] });
      expect(both).toMatchObject({ decision: 'require_approval', rule: 'refund-approval', observed: { would_have_been: 'deny' } });
    });

    it('never relaxes INVALID_AMOUNT, INVALID_TOOL_CONFIGURATION, approver-count denials or the delegation', () => {
      for (const windows of [approvals, denials]) {
        const o = { observeWindows: windows };
        expect(decide(refund('-5'), o)).toMatchObject({ decision: 'deny', code: 'INVALID_AMOUNT' });
        expect(decide({ tool: 'nope', arguments: {} }, o)).toMatchObject({ decision: 'deny', code: 'TOOL_UNKNOWN' });
        expect(decide(refund('5000.01'), o)).toMatchObject({ decision: 'deny', code: 'DELEGATION_SPENDING_LIMIT' });
        expect(decide({ tool: 'read_order', arguments: {} }, { ...o, delegation: { actions: ['refund.*'] } })).toMatchObject({
          decision: 'deny',
          code: 'DELEGATION_ACTION',
        });
        expect(
          decide({ tool: 'read_order', arguments: {} }, { ...o, delegation: { actions: ['*'], valid_until: '2025-12-31T23:00:00Z' } }),
        ).toMatchObject({ decision: 'deny', code: 'DELEGATION_EXPIRED' });
        const viewers = members.filter((m) => m.role === 'viewer');
        const nobody = decide(refund('500'), { ...o, members: viewers });
        expect(nobody).toMatchObject({ decision: 'deny', code: 'NO_ELIGIBLE_APPROVER' });
        expect(nobody.observed).toBeUndefined();
        const many: Member[] = Array.from({ length: 40 }, (_, i) => ({
          id: `00000000-0000-4000-8000-${String(100 + i).padStart(12, '0')}`,
          role: 'approver',
          signing: true,
        }));
        expect(decide(refund('500'), { ...o, members: many })).toMatchObject({ decision: 'deny', code: 'TOO_MANY_APPROVERS' });
        // A catalogue read elsewhere, with an amount mapping that is itself invalid.
        const broken = {
          ...catalogue,
          tools: [{ name: 'bad', action: 'refund.issue', kind: 'write', amount: { pointer: 'nope', currency: 'usd' } }],
        } as unknown as typeof catalogue;
        expect(
          decide({ tool: 'bad', arguments: { amount: '1' } }, { ...o, catalogue: broken, rulebook: undefined, overlay: undefined }),
        ).toMatchObject({
          decision: 'deny',
          code: 'INVALID_TOOL_CONFIGURATION',
        });
      }
    });
  });

  describe('rule sets', () => {
    const ruleset = (status: RuleStatus, replaced_by?: string) => ({
      document: 'rulesets/support.ruleset.json',
      version: 2,
      status,
      ...(replaced_by === undefined ? {} : { replaced_by }),
    });
    const refund = { tool: 'issue_refund', arguments: { amount: '50' } };

    it('refuses archived sets with their replacement, and drafts; test and active sets run', () => {
      const archived = decide(refund, { ruleset: ruleset('archived', 'rulesets/support-v2.ruleset.json') });
      expect(archived).toMatchObject({ decision: 'deny', code: 'RULESET_ARCHIVED' });
      expect(archived.notice.replaced_by).toBe('rulesets/support-v2.ruleset.json');
      expect(archived.summary).toContain('rulesets/support-v2.ruleset.json');
      expect(decide(refund, { ruleset: ruleset('archived') })).toMatchObject({ decision: 'deny', code: 'RULESET_ARCHIVED' });
      expect(decide(refund, { ruleset: ruleset('draft') })).toMatchObject({ decision: 'deny', code: 'RULESET_NOT_ACTIVE' });
      expect(decide(refund, { ruleset: ruleset('test') })).toMatchObject({ decision: 'allow' });
      expect(decide(refund, { ruleset: ruleset('active') })).toMatchObject({ decision: 'allow' });
    });

    it('refuses a disabled set, a draft version of an active set, and a set pinning a rule disabled since', () => {
      expect(decide(refund, { ruleset: ruleset('disabled') })).toMatchObject({ decision: 'deny', code: 'RULESET_DISABLED' });
      const draft = decide(refund, { ruleset: { ...ruleset('active'), draftVersion: true } });
      expect(draft).toMatchObject({ decision: 'deny', code: 'RULESET_NOT_ACTIVE' });
      expect(draft.summary).toContain('version 2 is a draft');
      const unusable = decide(refund, { ruleset: { ...ruleset('active'), unusableRules: ['policies/refunds.policy.json'] } });
      expect(unusable).toMatchObject({ decision: 'deny', code: 'RULESET_RULE_UNUSABLE' });
      expect(unusable.summary).toContain('policies/refunds.policy.json');
    });

    it('refuses a set not on the approved list when only approved sets run', () => {
      expect(decide(refund, { ruleset: ruleset('active'), approvedRulesets: [] })).toMatchObject({
        decision: 'deny',
        code: 'RULESET_NOT_APPROVED',
      });
      // The list approves versions: a bare id (from a file stored before it did) approves none.
      expect(decide(refund, { ruleset: ruleset('active'), approvedRulesets: ['rulesets/support.ruleset.json'] })).toMatchObject({
        decision: 'deny',
        code: 'RULESET_NOT_APPROVED',
      });
      // An approved version: only that one runs.
      expect(decide(refund, { ruleset: ruleset('active'), approvedRulesets: ['rulesets/support.ruleset.json@2'] }).decision).toBe('allow');
      expect(decide(refund, { ruleset: ruleset('active'), approvedRulesets: ['rulesets/support.ruleset.json@1'] })).toMatchObject({
        decision: 'deny',
        code: 'RULESET_NOT_APPROVED',
      });
    });

    it('never lets an observe window relax a refused rule set', () => {
      const denials = [{ name: 'w', starts: '2025-12-31T00:00:00Z', ends: '2026-01-02T00:00:00Z', relax: 'denials' as const }];
      expect(decide(refund, { ruleset: ruleset('draft'), observeWindows: denials })).toMatchObject({
        decision: 'deny',
        code: 'RULESET_NOT_ACTIVE',
      });
    });

    it('checks every pinned rulebook with its own overlay: a refusal anywhere wins, then a confirmation', () => {
      const pinnedSheet = (text: string, document = 'sheets/extra.rules.yaml') => {
        const r = compileRules(text, 'sheet');
        if (!r.ok) throw new Error(JSON.stringify(r.problems));
        return { document, sequence: 1, rulebook: r.rulebook, overlay: r.overlay };
      };
      const noRefunds = pinnedSheet('rules:\n  - action: issue_refund\n    never: true\n');
      const confirmRefunds = pinnedSheet(
        'rules:\n  - action: issue_refund\n    requires_confirmation: true\n',
        'sheets/confirm.rules.yaml',
      );
      expect(decide(refund, { rulebooks: [confirmRefunds, noRefunds] })).toMatchObject({ decision: 'deny', code: 'NEVER' });
      expect(decide(refund, { rulebooks: [confirmRefunds] })).toMatchObject({ decision: 'confirm', code: 'CONFIRMATION_REQUIRED' });
      expect(decide({ ...refund, confirmed: true }, { rulebooks: [confirmRefunds] })).toMatchObject({ decision: 'allow' });
      // Without the agent's own rulebook, the pinned one still decides.
      expect(decide(refund, { rulebook: undefined, overlay: undefined, rulebooks: [noRefunds] })).toMatchObject({ decision: 'deny' });
      // A pinned Colang rulebook too.
      const colang = compileRules('define flow issue_refund\n  refuse\n', 'colang');
      expect(colang.ok).toBe(true);
      if (colang.ok) {
        expect(decide(refund, { rulebooks: [{ document: 'colang/x.co', sequence: 1, rulebook: colang.rulebook }] }).decision).toBe('deny');
      }
      // Then the policy: a pinned sheet that allows leaves the 500 USD refund held.
      expect(
        decide(
          { tool: 'issue_refund', arguments: { amount: '500' } },
          { rulebooks: [pinnedSheet('rules:\n  - action: read_order\n    at_most: 3\n')] },
        ),
      ).toMatchObject({ decision: 'require_approval' });
    });
  });
});
