// Approvals name their people and times over real HTTP: the eligible approvers by name (never a key), when
// the call was held and its call id, who decided and when, and the fingerprint of the key that verifies it.
import { createHash, createPublicKey } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { okJson, setMemberRole, startServer, type TestServer } from './server-harness.ts';

let s: TestServer;
let clock = new Date('2026-04-01T09:00:00.000Z');
beforeAll(async () => {
  s = await startServer({ now: () => clock });
});
afterAll(async () => {
  await s.stop();
});

const member = (role: string) => {
  const m = s.keys.members.find((x) => x.role === role);
  if (!m) throw new Error(`no demo ${role}`);
  return m;
};
async function hold(args: Record<string, unknown>): Promise<{ id: string; callId: string }> {
  const r = await okJson(
    s.call('POST', '/v1/agents/support-bot/calls', { key: s.key('agent'), body: { tool: 'issue_refund', arguments: args } }),
  );
  expect(r.decision).toBe('require_approval');
  return { id: r.approval.id, callId: r.call_id };
}
const read = (id: string, who: Parameters<TestServer['key']>[0] = 'viewer') =>
  okJson(s.call('GET', `/v1/approvals/${id}`, { key: s.key(who) }));

describe('the people and times of an approval', () => {
  it('names the eligible approvers, the held time and the call id, to every member, with no key in the answer', async () => {
    clock = new Date('2026-04-01T09:00:00.000Z');
    const first = await hold({ amount: '300' });
    clock = new Date('2026-04-01T09:00:05.000Z');
    const second = await hold({ amount: '300' });
    expect(second.callId).not.toBe(first.callId);

    for (const who of ['viewer', 'developer', 'approver', 'owner'] as const) {
      const a = await read(first.id, who);
      expect(a.eligible_approvers).toEqual(['owner', 'admin', 'approver'].map((r) => ({ id: member(r).id, name: member(r).name })));
      expect(a.approvers).toEqual(a.eligible_approvers.map((m: { id: string }) => m.id));
      expect(a).toMatchObject({ call_id: first.callId, held_at: '2026-04-01T09:00:00.000Z', decided_by: null, decided_by_name: null });
    }
    const list = await okJson(s.call('GET', '/v1/approvals?status=pending', { key: s.key('viewer') }));
    const listed = list.approvals.filter((a: { id: string }) => a.id === first.id || a.id === second.id);
    expect(listed.map((a: { call_id: string; held_at: string }) => [a.call_id, a.held_at])).toEqual([
      [second.callId, '2026-04-01T09:00:05.000Z'],
      [first.callId, '2026-04-01T09:00:00.000Z'],
    ]);
    const text = (await s.call('GET', '/v1/approvals?status=pending', { key: s.key('owner') })).text;
    expect(text).not.toMatch(/PRIVATE KEY|PUBLIC KEY|private_key|public_key|tg_/);
    for (const m of s.keys.members) expect(text).not.toContain(m.key);
  });

  it('drops a listed approver who can no longer approve, and names them again once they can', async () => {
    const { id } = await hold({ amount: '250' });
    const april = member('approver');
    await setMemberRole(s, april.id, 'viewer');
    try {
      const a = await read(id);
      expect(a.approvers).toContain(april.id);
      expect(a.eligible_approvers.map((m: { name: string }) => m.name)).toEqual([member('owner').name, member('admin').name]);
    } finally {
      await setMemberRole(s, april.id, 'approver');
    }
    expect((await read(id)).eligible_approvers.map((m: { name: string }) => m.name)).toContain(april.name);
  });

  it("says who decided, by id and name, and when; the decider's key fingerprint is that of the key that verifies", async () => {
    clock = new Date('2026-04-01T10:00:00.000Z');
    const { id, callId } = await hold({ amount: '400' });
    clock = new Date('2026-04-01T10:02:30.000Z');
    const april = member('approver');
    const decided = await okJson(s.call('POST', `/v1/approvals/${id}/deny`, { key: s.key('approver'), body: { reason: 'no' } }));
    const expected = {
      status: 'denied',
      call_id: callId,
      decided_by: april.id,
      decided_by_name: april.name,
      decided_at: '2026-04-01T10:02:30.000Z',
      held_at: '2026-04-01T10:00:00.000Z',
    };
    expect(decided).toMatchObject(expected);
    expect(await read(id)).toMatchObject(expected);
    const page = await okJson(s.call('GET', '/v1/approvals?status=decided', { key: s.key('viewer') }));
    expect(page.approvals.find((a: { id: string }) => a.id === id)).toMatchObject(expected);

    const key = await okJson(s.call('GET', `/v1/members/${april.id}/public-key`, { key: s.key('viewer') }));
    const der = createPublicKey(key.public_key).export({ type: 'spki', format: 'der' });
    expect(key.fingerprint).toBe(`SHA256:${createHash('sha256').update(der).digest('base64').replace(/=+$/, '')}`);
    expect(key.fingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    const owner = await okJson(s.call('GET', `/v1/members/${member('owner').id}/public-key`, { key: s.key('viewer') }));
    expect(owner.fingerprint).not.toBe(key.fingerprint);
  });
});
