// POST /v1/agents/{agent}/calls over real HTTP on a fresh demo data folder: the demo agent's decisions,
// each recorded with its versions and digest; another agent's key, members' keys and bad bodies refused
// with nothing recorded.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_WITH_SPENDING_LIMIT } from '../src/server/demo.ts';
import { countRows, decisionRow, postEdit, postLarge, startServer, type TestServer } from './server-harness.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s.stop();
});

const CALLS = '/v1/agents/support-bot/calls';
const count = (table: 'decisions' | 'approvals') => countRows(s, table);
const call = (body: unknown, key = s.key('agent')) => s.call('POST', CALLS, { key, body });

describe('the gate', () => {
  it('holds a 500 USD refund for the approver, admin and owner, and records it', async () => {
    const before = await count('approvals');
    const r = await call({ tool: 'issue_refund', arguments: { amount: '500', order: 'A-1' } });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ decision: 'require_approval', rule: 'refund-approval', explanation: { decision: 'require_approval' } });
    expect(r.json.call_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.json.approval).toMatchObject({ approvers_count: 3 });
    expect(await count('approvals')).toBe(before + 1);

    const row = await decisionRow(s, r.json.call_id);
    expect(row).toMatchObject({ agent: 'support-bot', tool: 'issue_refund', action: 'refund.issue', amount: '500', currency: 'USD' });
    expect(row.decision).toBe('require_approval');
    expect(JSON.parse(row.arguments as string)).toEqual({ amount: '500', order: 'A-1' });
    expect(row.arguments_digest).toBe(createHash('sha256').update('{"amount":"500","order":"A-1"}').digest('hex'));
    expect(JSON.parse(row.versions as string)).toMatchObject({
      'agents/support-bot.agent.yaml': 1,
      'catalogue.yaml': 1,
      'policies/refunds.policy.json': 1,
      'sheets/support.rules.yaml': 1,
    });

    const approval = await s.call('GET', `/v1/approvals/${r.json.approval.id}`, { key: s.key('viewer') });
    expect(approval.status).toBe(200);
    const ids = ['owner', 'admin', 'approver'].map((role) => s.keys.members.find((m) => m.role === role)?.id);
    expect([...approval.json.approvers].sort()).toEqual([...ids].sort());
    expect(approval.json).toMatchObject({ status: 'pending', policy_document: 'policies/refunds.policy.json', policy_sequence: 1 });
  });

  it('allows 50 and denies 5000', async () => {
    expect((await call({ tool: 'issue_refund', arguments: { amount: '50' } })).json).toMatchObject({
      decision: 'allow',
      rule: 'refund-auto',
    });
    const big = await call({ tool: 'issue_refund', arguments: { amount: '5000' } });
    expect(big.json).toMatchObject({ decision: 'deny', rule: 'refund-over-limit' });
    expect(big.json.approval).toBeUndefined();
  });

  it('holds the delegation as the hard limit: over its spending limit, and tools without an amount, are denied', async () => {
    const edit = await postEdit(s, 'agents/support-bot.agent.yaml', s.key('owner'), {
      content: AGENT_WITH_SPENDING_LIMIT,
      reason: 'a spending limit',
    });
    expect(edit.status).toBe(201);
    expect((await call({ tool: 'issue_refund', arguments: { amount: '5000.5' } })).json).toMatchObject({
      decision: 'deny',
      code: 'DELEGATION_SPENDING_LIMIT',
    });
    expect((await call({ tool: 'read_order', arguments: { id: '1' } })).json).toMatchObject({
      decision: 'deny',
      code: 'DELEGATION_SPENDING_LIMIT',
    });
    const back = await s.call('POST', `/v1/documents/${encodeURIComponent('agents/support-bot.agent.yaml')}/revert`, {
      key: s.key('owner'),
    });
    expect(back.status).toBe(200);
    expect((await call({ tool: 'read_order', arguments: { id: '1' } })).json).toMatchObject({ decision: 'allow', rule: 'read-orders' });
  });

  it('denies an unknown tool and an invalid amount, recording both', async () => {
    const before = await count('decisions');
    expect((await call({ tool: 'launch_rocket', arguments: {} })).json).toMatchObject({ decision: 'deny', code: 'TOOL_UNKNOWN' });
    expect((await call({ tool: 'issue_refund', arguments: { amount: '1e3' } })).json).toMatchObject({
      decision: 'deny',
      code: 'INVALID_AMOUNT',
    });
    expect(await count('decisions')).toBe(before + 2);
  });

  it('refuses a payout the policy denies at once, without asking anyone to confirm it first', async () => {
    // The sheet asks for confirmation of payouts, and the policy denies every payout: the denial wins.
    const c = await call({ tool: 'send_payout', arguments: { amount: '10' } });
    expect(c.json).toMatchObject({ decision: 'deny', rule: 'never' });
    expect(c.json.explanation.confirmation).toBeUndefined();
    expect((await call({ tool: 'send_payout', arguments: { amount: '10' }, confirmed: true })).json).toMatchObject({ decision: 'deny' });
  });

  it("counts the session's allowed calls (at_most 5)", async () => {
    for (let i = 0; i < 5; i++) {
      expect((await call({ tool: 'issue_refund', arguments: { amount: '1' }, session: 'sess-1' })).json.decision).toBe('allow');
    }
    expect((await call({ tool: 'issue_refund', arguments: { amount: '1' }, session: 'sess-1' })).json).toMatchObject({
      decision: 'deny',
      code: 'AT_MOST_EXCEEDED',
    });
    expect((await call({ tool: 'issue_refund', arguments: { amount: '1' }, session: 'sess-2' })).json.decision).toBe('allow');
  });

  it("refuses another agent's key, members' keys, no key and a wrong key, recording nothing", async () => {
    const before = await count('decisions');
    const other = await s.ctx.state.createKey({ agent: 'other-bot' });
    const body = { tool: 'issue_refund', arguments: { amount: '50' } };
    const mismatch = await call(body, other);
    expect(mismatch.status).toBe(403);
    expect(mismatch.json.error.code).toBe('AGENT_MISMATCH');
    const member = await call(body, s.key('owner'));
    expect(member.status).toBe(403);
    expect(member.json.error.code).toBe('AGENT_KEY_REQUIRED');
    const none = await s.call('POST', CALLS, { body });
    expect(none.status).toBe(401);
    expect(none.json.error.code).toBe('MISSING_KEY');
    const wrong = await call(body, 'tg_not-a-key');
    expect(wrong.status).toBe(401);
    expect(wrong.json.error.code).toBe('INVALID_KEY');
    const unknownAgent = await s.call('POST', '/v1/agents/other-bot/calls', { key: other, body });
    expect(unknownAgent.status).toBe(404);
    expect(await count('decisions')).toBe(before);
  });

  it('answers bad bodies 4xx and records nothing', async () => {
    const before = { d: await count('decisions'), a: await count('approvals') };
    const key = s.key('agent');
    const json = { 'content-type': 'application/json' };
    const bad = [
      await s.call('POST', CALLS, { key, raw: '{"tool": "issue_refund", ', headers: json }),
      await s.call('POST', CALLS, { key, raw: 'not json at all', headers: json }),
      await s.call('POST', CALLS, { key, raw: '{"tool":"issue_refund","arguments":{"amount":"500"}}' }),
      await call({ tool: 42, arguments: { amount: '500' } }),
      await call({ tool: 'issue_refund', arguments: ['500'] }),
      await call({ tool: 'issue_refund', arguments: { amount: '500' }, confirmed: 'yes' }),
      await call({ tool: 'issue_refund', arguments: { amount: '500' }, extra: true }),
      await call({ tool: 'issue_refund' }),
      await call([1, 2]),
    ];
    expect(bad.map((r) => r.status)).toEqual([400, 400, 415, 400, 400, 400, 400, 400, 400]);
    expect(bad.map((r) => r.json?.error?.code)).toEqual([
      'INVALID_JSON',
      'INVALID_JSON',
      'UNSUPPORTED_MEDIA_TYPE',
      'INVALID_BODY',
      'INVALID_BODY',
      'INVALID_BODY',
      'INVALID_BODY',
      'INVALID_BODY',
      'INVALID_BODY',
    ]);
    const unknown = await call({ tool: 'issue_refund', arguments: { amount: '500' }, extra: true });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.code).toBe('INVALID_BODY');
    const huge = await postLarge(
      s.url,
      CALLS,
      key,
      JSON.stringify({ tool: 'issue_refund', arguments: { amount: '500', note: 'x'.repeat(2 * 1024 * 1024) } }),
    );
    expect(huge.status).toBe(413);
    expect(await count('decisions')).toBe(before.d);
    expect(await count('approvals')).toBe(before.a);
  });
});
