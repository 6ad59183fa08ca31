// Approvals over real HTTP: who may decide (eligible members only), the signature and the public key that
// verifies it, every race (two approvers at once, approve after expiry, claim twice, claim with other
// arguments), the agent's own requests only, and bad bodies that change nothing.
import { verify } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvalRows, decisionRow, postLarge, setApprovers, startServer, type TestServer } from './server-harness.ts';

let s: TestServer;
let clock = new Date('2026-03-01T09:00:00.000Z');
beforeAll(async () => {
  s = await startServer({ now: () => clock });
});
afterAll(async () => {
  await s.stop();
});

const REFUND = { amount: '500', order: 'A-7' };
async function held(args: Record<string, unknown> = REFUND): Promise<string> {
  const r = await s.call('POST', '/v1/agents/support-bot/calls', { key: s.key('agent'), body: { tool: 'issue_refund', arguments: args } });
  expect(r.json.decision).toBe('require_approval');
  return r.json.approval.id as string;
}
const approve = (id: string, who: Parameters<TestServer['key']>[0], body: unknown = {}) =>
  s.call('POST', `/v1/approvals/${id}/approve`, { key: s.key(who), body });
const row = async (id: string) => (await s.ctx.state.findApproval(id)) as { status: string };

describe('approvals', () => {
  it("refuses a model's key of an eligible approver (403 PERSON_REQUIRED): a person decides a held call", async () => {
    const id = await held();
    const approver = s.keys.members.find((m) => m.role === 'approver');
    const modelKey = await s.ctx.state.createKey({ member: approver?.id as string }, ['model']);
    for (const verb of ['approve', 'deny']) {
      const r = await s.call('POST', `/v1/approvals/${id}/${verb}`, { key: modelKey, body: {} });
      expect([r.status, r.json.error.code]).toEqual([403, 'PERSON_REQUIRED']);
    }
    expect((await row(id)).status).toBe('pending');
    expect((await approve(id, 'approver')).status).toBe(200);
  });

  it('refuses a viewer and a developer (403 NOT_ELIGIBLE) and lets an approver approve with a verifiable signature', async () => {
    const id = await held();
    for (const who of ['viewer', 'developer'] as const) {
      const r = await approve(id, who);
      expect(r.status).toBe(403);
      expect(r.json.error.code).toBe('NOT_ELIGIBLE');
    }
    expect((await row(id)).status).toBe('pending');

    const ok = await approve(id, 'approver', { reason: 'customer is right' });
    expect(ok.status).toBe(200);
    const approver = s.keys.members.find((m) => m.role === 'approver');
    expect(ok.json).toMatchObject({ status: 'approved', decided_by: approver?.id, reason: 'customer is right' });
    const content = JSON.parse(ok.json.signed_content);
    expect(Object.keys(content)).toEqual([...Object.keys(content)].sort());
    expect(content).toMatchObject({
      id,
      agent: 'support-bot',
      tool: 'issue_refund',
      decision: 'approved',
      decided_by: approver?.id,
      policy_document: 'policies/refunds.policy.json',
      policy_sequence: 1,
      rule: 'refund-approval',
    });

    const pk = await s.call('GET', `/v1/members/${approver?.id}/public-key`, { key: s.key('viewer') });
    expect(pk.status).toBe(200);
    expect(pk.json.public_key).toContain('BEGIN PUBLIC KEY');
    const signature = Buffer.from(ok.json.signature, 'base64');
    expect(verify(null, Buffer.from(ok.json.signed_content), pk.json.public_key, signature)).toBe(true);
    expect(verify(null, Buffer.from(ok.json.signed_content.replace('approved', 'denied')), pk.json.public_key, signature)).toBe(false);
    // Another member's key does not verify it.
    const owner = s.keys.members.find((m) => m.role === 'owner');
    const other = await s.call('GET', `/v1/members/${owner?.id}/public-key`, { key: s.key('viewer') });
    expect(verify(null, Buffer.from(ok.json.signed_content), other.json.public_key, signature)).toBe(false);
    expect((await s.call('GET', '/v1/members/nobody/public-key', { key: s.key('viewer') })).status).toBe(404);

    const again = await s.call('POST', `/v1/approvals/${id}/deny`, { key: s.key('owner'), body: {} });
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('ALREADY_DECIDED');
  });

  it('refuses an approver who is not eligible for the rule', async () => {
    const id = await held();
    const approver = s.keys.members.find((m) => m.role === 'approver');
    await setApprovers(
      s,
      id,
      s.keys.members.filter((m) => m.role === 'owner').map((m) => m.id),
    );
    const r = await approve(id, 'approver');
    expect(r.status).toBe(403);
    expect(r.json.error.code).toBe('NOT_ELIGIBLE');
    expect(approver).toBeDefined();
    expect((await approve(id, 'owner')).status).toBe(200);
  });

  it('lets exactly one of two approvers deciding at once win', async () => {
    for (let round = 0; round < 5; round++) {
      const id = await held();
      const [a, b] = await Promise.all([
        approve(id, 'approver'),
        s.call('POST', `/v1/approvals/${id}/deny`, { key: s.key('admin'), body: {} }),
      ]);
      const statuses = [a.status, b.status].sort();
      expect(statuses).toEqual([200, 409]);
      const loser = a.status === 409 ? a : b;
      expect(loser.json.error.code).toBe('ALREADY_DECIDED');
      const winner = a.status === 200 ? a : b;
      expect((await row(id)).status).toBe(winner.json.status);
    }
  });

  it('refuses to decide an expired request (409 APPROVAL_EXPIRED) and lists it as expired', async () => {
    const id = await held();
    clock = new Date(clock.getTime() + 4 * 3600 * 1000 + 1000); // the rule's TTL is 4 hours
    try {
      const r = await approve(id, 'approver');
      expect(r.status).toBe(409);
      expect(r.json.error.code).toBe('APPROVAL_EXPIRED');
      expect((await row(id)).status).toBe('pending');
      const expired = await s.call('GET', '/v1/approvals?status=expired', { key: s.key('viewer') });
      expect(expired.json.approvals.map((a: { id: string }) => a.id)).toContain(id);
      const pending = await s.call('GET', '/v1/approvals?status=pending', { key: s.key('viewer') });
      expect(pending.json.approvals.map((a: { id: string }) => a.id)).not.toContain(id);
      expect((await s.call('GET', `/v1/approvals/${id}`, { key: s.key('agent') })).json.status).toBe('expired');
    } finally {
      clock = new Date(clock.getTime() + 1000);
    }
  });

  it('lets the agent claim an approved request exactly once, with the approved arguments only', async () => {
    const id = await held({ amount: '250', order: 'B-2' });
    const claim = (args: unknown, key = s.key('agent')) => s.call('POST', `/v1/approvals/${id}/claim`, { key, body: { arguments: args } });
    const early = await claim({ amount: '250', order: 'B-2' });
    expect(early.status).toBe(409);
    expect(early.json.error.code).toBe('NOT_APPROVED');
    expect((await approve(id, 'admin')).status).toBe(200);

    const other = await claim({ amount: '999', order: 'B-2' });
    expect(other.status).toBe(409);
    expect(other.json.error.code).toBe('ARGUMENTS_MISMATCH');
    const foreign = await claim({ amount: '250', order: 'B-2' }, await s.ctx.state.createKey({ agent: 'other-bot' }));
    expect(foreign.status).toBe(403);
    const member = await claim({ amount: '250', order: 'B-2' }, s.key('owner'));
    expect(member.status).toBe(403);

    // Key order does not matter: the digest is over canonical JSON.
    const [first, second] = await Promise.all([claim({ order: 'B-2', amount: '250' }), claim({ amount: '250', order: 'B-2' })]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    const loser = first.status === 409 ? first : second;
    expect(loser.json.error.code).toBe('ALREADY_CLAIMED');
    const third = await claim({ amount: '250', order: 'B-2' });
    expect(third.status).toBe(409);
    expect(third.json.error.code).toBe('ALREADY_CLAIMED');
  });

  it('lists at most limit requests, newest first, saying whether more match; decided is every request decided or expired', async () => {
    const ids = [await held(), await held(), await held()];
    const newest = await s.call('GET', '/v1/approvals?status=pending&limit=2', { key: s.key('viewer') });
    expect(newest.status).toBe(200);
    expect(newest.json.approvals.map((a: { id: string }) => a.id)).toEqual([ids[2], ids[1]]);
    expect(newest.json.has_more).toBe(true);
    const all = await s.call('GET', '/v1/approvals?status=pending&limit=500', { key: s.key('viewer') });
    expect(all.json.has_more).toBe(false);
    expect(all.json.approvals.map((a: { id: string }) => a.id)).toEqual(expect.arrayContaining(ids));

    expect((await approve(ids[0] as string, 'approver')).status).toBe(200);
    const decided = await s.call('GET', '/v1/approvals?status=decided&limit=500', { key: s.key('viewer') });
    expect(decided.json.approvals.map((a: { id: string }) => a.id)).toContain(ids[0]);
    expect(decided.json.approvals.every((a: { status: string }) => a.status !== 'pending')).toBe(true);
    expect(decided.json.approvals.map((a: { id: string }) => a.id)).not.toContain(ids[1]);

    for (const bad of ['0', '501', '-1', '2.5', 'many']) {
      const r = await s.call('GET', `/v1/approvals?limit=${bad}`, { key: s.key('viewer') });
      expect(r.status).toBe(400);
    }
  });

  it('refuses a denied request claim, lists by status for members only, and shows the agent its own requests only', async () => {
    const id = await held();
    expect((await s.call('POST', `/v1/approvals/${id}/deny`, { key: s.key('owner'), body: { reason: 'no' } })).json.status).toBe('denied');
    const claim = await s.call('POST', `/v1/approvals/${id}/claim`, { key: s.key('agent'), body: { arguments: REFUND } });
    expect(claim.json.error.code).toBe('NOT_APPROVED');
    const denied = await s.call('GET', '/v1/approvals?status=denied', { key: s.key('viewer') });
    expect(denied.status).toBe(200);
    expect(denied.json.approvals.every((a: { status: string }) => a.status === 'denied')).toBe(true);
    expect(denied.json.approvals.map((a: { id: string }) => a.id)).toContain(id);
    expect((await s.call('GET', '/v1/approvals', { key: s.key('agent') })).status).toBe(403);
    expect((await s.call('GET', '/v1/approvals?status=bogus', { key: s.key('viewer') })).status).toBe(400);
    expect((await s.call('GET', `/v1/approvals/${id}`, { key: await s.ctx.state.createKey({ agent: 'other-bot' }) })).status).toBe(403);
    expect((await s.call('GET', '/v1/approvals/nope', { key: s.key('viewer') })).status).toBe(404);
    expect((await s.call('GET', `/v1/approvals/${id}`)).status).toBe(401);
  });

  it('publishes approval events on create, approve and deny', async () => {
    const seen: { id: string; status: string }[] = [];
    const off = s.ctx.events.subscribe((e) => {
      if (e.type === 'approval') seen.push({ id: e.id, status: e.status });
    });
    try {
      const a = await held();
      const b = await held();
      await approve(a, 'approver');
      await s.call('POST', `/v1/approvals/${b}/deny`, { key: s.key('approver'), body: {} });
      expect(seen).toEqual([
        { id: a, status: 'pending' },
        { id: b, status: 'pending' },
        { id: a, status: 'approved' },
        { id: b, status: 'denied' },
      ]);
    } finally {
      off();
    }
  });

  it('answers bad bodies 4xx and changes nothing', async () => {
    const id = await held();
    const json = { 'content-type': 'application/json' };
    const key = s.key('approver');
    const snapshot = async () => JSON.stringify(await approvalRows(s));
    const before = await snapshot();
    const bad = [
      await s.call('POST', `/v1/approvals/${id}/approve`, { key, raw: '{"reason": ', headers: json }),
      await s.call('POST', `/v1/approvals/${id}/approve`, { key, body: { reason: 42 } }),
      await s.call('POST', `/v1/approvals/${id}/approve`, { key, body: { reason: 'ok', approve: true } }),
      await postLarge(s.url, `/v1/approvals/${id}/approve`, key, JSON.stringify({ reason: 'x'.repeat(2 * 1024 * 1024) })),
      await s.call('POST', `/v1/approvals/${id}/claim`, { key: s.key('agent'), body: { arguments: 'all' } }),
      await s.call('POST', `/v1/approvals/${id}/claim`, { key: s.key('agent'), body: { args: {} } }),
    ];
    expect(bad.map((r) => r.status)).toEqual([400, 400, 400, 413, 400, 400]);
    for (const r of bad) expect(typeof r.json?.error?.code).toBe('string');
    expect(await snapshot()).toBe(before);
  });

  it('forgets arguments after the 30-day retention period and keeps their digest', async () => {
    const first = await s.call('POST', '/v1/agents/support-bot/calls', {
      key: s.key('agent'),
      body: { tool: 'issue_refund', arguments: { amount: '20', order: 'R-1' } },
    });
    expect(first.json.decision).toBe('allow');
    clock = new Date(clock.getTime() + 31 * 86_400_000);
    await s.call('POST', '/v1/agents/support-bot/calls', {
      key: s.key('agent'),
      body: { tool: 'issue_refund', arguments: { amount: '20' } },
    });
    // The sweep runs off the call's path (decide-agent-call.ts), so it may finish just after that call's answer.
    await expect.poll(async () => (await decisionRow(s, first.json.call_id)).arguments, { timeout: 5_000 }).toBeNull();
    expect((await decisionRow(s, first.json.call_id)).arguments_digest).toMatch(/^[0-9a-f]{64}$/);
  });
});
