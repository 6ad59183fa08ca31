// A member whose keys are all a model's can never approve (a model never decides a held call), so it is never
// an eligible approver (docs/policy.md, "Approvers"), over real HTTP: not counted in a held call's
// approvers_count, not listed in its approval, not in a decision map's eligible members, not in an evaluation;
// listed alone, nobody is eligible and the call is denied NO_ELIGIBLE_APPROVER. A person's key makes it count.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFUNDS_POLICY_TEXT } from './rules-fixtures.ts';
import { agentKey, okJson, postEdit, startServer, type TestServer } from './server-harness.ts';

const POLICY = 'policies/refunds.policy.json';
const REFUND_TOOL = { name: 'issue_refund', action: 'refund.issue', amount: { pointer: '/amount', currency: 'USD' } };

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s.stop();
});

/** A held refund through the gate: its approval's count and the approval request's eligible ids. */
async function heldRefund(): Promise<{ count: number; eligible: string[] }> {
  const call = await okJson(
    s.call('POST', '/v1/agents/support-bot/calls', {
      key: agentKey(s, 'support-bot'),
      body: { tool: 'issue_refund', arguments: { amount: '500' } },
    }),
  );
  expect(call.decision).toBe('require_approval');
  const approval = await okJson(s.call('GET', `/v1/approvals/${call.approval.id}`, { key: s.key('owner') }));
  return { count: call.approval.approvers_count, eligible: approval.eligible_approvers.map((m: { id: string }) => m.id) };
}

/** The eligible member ids the workspace's policy map gives the held refund. */
async function mapEligible(): Promise<string[]> {
  const map = await okJson(s.call('GET', `/v1/documents/${encodeURIComponent(POLICY)}/decision-map`, { key: s.key('viewer') }));
  const tools = map.catalogues.flatMap((c: { tools: unknown[] }) => c.tools) as { tool: string; outcomes?: unknown }[];
  return JSON.stringify(tools).match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g) ?? [];
}

/** The refunds policy with refund-approval approved by `users` alone. */
function refundsApprovedBy(...users: string[]) {
  const doc = JSON.parse(REFUNDS_POLICY_TEXT);
  doc.rules[2].approvers = { users };
  return doc;
}

describe('a member with only model keys', () => {
  it('is never among the eligible approvers of a held call, a decision map or an evaluation', async () => {
    const before = await heldRefund();
    const modelMember = await s.ctx.state.createMember('assistant', 'approver');
    await s.ctx.state.createKey({ member: modelMember.id }, ['model']);
    await s.ctx.state.createKey({ member: modelMember.id }, ['model', 'catalogue']);

    const after = await heldRefund();
    expect(after.count).toBe(before.count);
    expect(after.eligible).toEqual(before.eligible);
    expect(after.eligible).not.toContain(modelMember.id);
    expect(await mapEligible()).not.toContain(modelMember.id);
    // The members an evaluation is given (`tollgate policy evaluate --members`) say so with model: true.
    const owner = { id: s.keys.members.find((m) => m.role === 'owner')?.id, role: 'owner', signing: true };
    const members = [owner, { id: modelMember.id, role: 'approver', signing: true, model: true }];
    const evaluate = (document: unknown) =>
      okJson(
        s.call('POST', '/v1/policies/evaluate', {
          key: s.key('viewer'),
          body: { document, tool: REFUND_TOOL, arguments: { amount: '500' }, members },
        }),
      );
    expect((await evaluate(JSON.parse(REFUNDS_POLICY_TEXT))).approvers).toEqual([owner.id]);

    // Listed alone, nobody eligible remains: the policy's rule denies the call.
    const alone = await evaluate(refundsApprovedBy(modelMember.id));
    expect([alone.decision, alone.code]).toEqual(['deny', 'NO_ELIGIBLE_APPROVER']);
    // Running, such a policy denies the held call at the gate.
    const edited = await postEdit(s, POLICY, s.key('owner'), {
      content: `${JSON.stringify(refundsApprovedBy(modelMember.id), null, 2)}\n`,
      reason: 'approved by the assistant alone',
    });
    expect(edited.status, edited.text).toBe(201);
    const denied = await okJson(
      s.call('POST', '/v1/agents/support-bot/calls', {
        key: agentKey(s, 'support-bot'),
        body: { tool: 'issue_refund', arguments: { amount: '500' } },
      }),
    );
    expect([denied.decision, denied.code, denied.approval]).toEqual(['deny', 'NO_ELIGIBLE_APPROVER', undefined]);

    // A person's key makes the member a person who can sign: it counts from the next call on.
    await s.ctx.state.createKey({ member: modelMember.id }, []);
    expect(await heldRefund()).toEqual({ count: 1, eligible: [modelMember.id] });
  });
});
