// Members and keys managed through the API (docs/security.md), over real HTTP on each state store: owners and
// admins add, re-role and remove members and make keys; a key is shown once, listed without it, refused on its
// next call once revoked (KEY_REVOKED), expired (KEY_EXPIRED) or rotated past its overlap; removing a member
// revokes their keys and drops them from a pending approval's eligible approvers; the rules hold (the last owner
// stays, nobody raises their own role, an admin makes no owner, an agent or a model never manages); and every
// change is in the record owners and admins read.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LooseJson, okJson, startServer, type TestServer } from './server-harness.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s.stop();
});

const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

async function addMember(role: string, by = s.key('owner')): Promise<LooseJson> {
  return okJson(s.call('POST', '/v1/members', { key: by, body: { name: unique(role), role } }), 201);
}

async function makeKey(body: Record<string, unknown>, by = s.key('owner')): Promise<LooseJson> {
  return okJson(s.call('POST', '/v1/keys', { key: by, body }), 201);
}

/** The code a key's call to GET /v1/me is answered with: 200 as ok, else the error's code. */
async function meWith(key: string): Promise<string> {
  const r = await s.call('GET', '/v1/me', { key });
  return r.status === 200 ? 'ok' : `${r.status} ${r.json.error.code}`;
}

describe('members', () => {
  it('are added, listed, re-roled and removed by an owner, each change recorded', async () => {
    const m = await addMember('developer');
    expect(m).toMatchObject({ role: 'developer', removed_at: null });
    const listed = await okJson(s.call('GET', '/v1/members', { key: s.key('viewer') }));
    expect(listed.members.map((x: { id: string }) => x.id)).toContain(m.id);
    expect(JSON.stringify(listed)).not.toMatch(/private_key|public_key|PRIVATE KEY/);

    expect(await okJson(s.call('PATCH', `/v1/members/${m.id}`, { key: s.key('admin'), body: { role: 'approver' } }))).toMatchObject({
      role: 'approver',
    });
    const removed = await okJson(s.call('DELETE', `/v1/members/${m.id}`, { key: s.key('admin') }));
    expect(removed.removed_at).not.toBeNull();
    const after = await okJson(s.call('GET', '/v1/members', { key: s.key('viewer') }));
    expect(after.members.map((x: { id: string }) => x.id)).not.toContain(m.id);

    const record = await okJson(s.call('GET', '/v1/identity/changes?limit=3', { key: s.key('admin') }));
    expect(record.changes.map((c: LooseJson) => [c.action, c.subject, c.actor])).toEqual([
      ['member.removed', m.name, expect.stringMatching(/^member:/)],
      ['member.role_changed', m.name, expect.stringMatching(/^member:/)],
      ['member.added', m.name, expect.stringMatching(/^member:/)],
    ]);
    expect(record.changes[1].details).toMatchObject({ from: 'developer', to: 'approver' });
    expect(record.has_more).toBe(true);
    const next = await okJson(s.call('GET', `/v1/identity/changes?limit=3&cursor=${record.next_cursor}`, { key: s.key('owner') }));
    expect(next.changes.length).toBeGreaterThan(0);
    expect(next.changes.map((c: LooseJson) => c.subject)).not.toContain(m.name);
  });

  it('keeps the last owner, and lets no one raise their own role or an admin make or unmake an owner', async () => {
    const owner = s.keys.members.find((m) => m.role === 'owner') as { id: string };
    const admin = s.keys.members.find((m) => m.role === 'admin') as { id: string };
    const approver = s.keys.members.find((m) => m.role === 'approver') as { id: string };
    const refused = async (method: string, path: string, key: string, body?: unknown) => {
      const r = await s.call(method, path, { key, ...(body === undefined ? {} : { body }) });
      return `${r.status} ${r.json?.error?.code}`;
    };
    expect(await refused('PATCH', `/v1/members/${owner.id}`, s.key('owner'), { role: 'admin' })).toBe('409 LAST_OWNER');
    expect(await refused('DELETE', `/v1/members/${owner.id}`, s.key('owner'))).toBe('409 LAST_OWNER');
    expect(await refused('PATCH', `/v1/members/${admin.id}`, s.key('admin'), { role: 'owner' })).toBe('403 OWN_ROLE');
    expect(await refused('PATCH', `/v1/members/${approver.id}`, s.key('approver'), { role: 'developer' })).toBe('403 OWN_ROLE');
    expect(await refused('PATCH', `/v1/members/${approver.id}`, s.key('admin'), { role: 'owner' })).toBe('403 OWNER_REQUIRED');
    expect(await refused('PATCH', `/v1/members/${owner.id}`, s.key('admin'), { role: 'viewer' })).toBe('403 OWNER_REQUIRED');
    expect(await refused('DELETE', `/v1/members/${owner.id}`, s.key('admin'))).toBe('403 OWNER_REQUIRED');
    expect(await refused('POST', '/v1/members', s.key('admin'), { name: unique('o'), role: 'owner' })).toBe('403 OWNER_REQUIRED');
    expect(await refused('POST', '/v1/members', s.key('developer'), { name: unique('d'), role: 'viewer' })).toBe('403 ROLE_REQUIRED');
    expect(await refused('PATCH', `/v1/members/${approver.id}`, s.key('developer'), { role: 'viewer' })).toBe('403 ROLE_REQUIRED');
    expect(await refused('POST', '/v1/members', s.key('agent'), { name: unique('a'), role: 'viewer' })).toBe('403 MEMBER_REQUIRED');
    expect(await refused('GET', '/v1/identity/changes', s.key('developer'))).toBe('403 ROLE_REQUIRED');
    const existing = s.keys.members.find((m) => m.role === 'viewer') as { name: string };
    expect(await refused('POST', '/v1/members', s.key('owner'), { name: existing.name, role: 'viewer' })).toBe('409 MEMBER_EXISTS');
    expect(await refused('PATCH', `/v1/members/${randomUUID()}`, s.key('owner'), { role: 'viewer' })).toBe('404 NOT_FOUND');

    // With a second owner, the first may step down; the second is then the last.
    const second = await addMember('owner');
    const secondKey = await makeKey({ member: second.id });
    expect(await okJson(s.call('PATCH', `/v1/members/${second.id}`, { key: secondKey.key, body: { role: 'admin' } }))).toMatchObject({
      role: 'admin',
    });
    expect(await meWith(secondKey.key)).toBe('ok');
    expect(await refused('PATCH', `/v1/members/${second.id}`, secondKey.key, { role: 'owner' })).toBe('403 OWN_ROLE');
  });

  it("takes away at once what a demoted member's role gave their keys", async () => {
    const dev = await addMember('developer');
    const { key } = await makeKey({ member: dev.id });
    const compile = () => s.call('POST', '/v1/rule-sheets/compile', { key, body: { sheet: 'version: 1\nrules: []\n' } });
    expect((await compile()).status).not.toBe(403);
    await okJson(s.call('PATCH', `/v1/members/${dev.id}`, { key: s.key('owner'), body: { role: 'viewer' } }));
    const r = await compile();
    expect(`${r.status} ${r.json?.error?.code}`).toBe('403 GRANT_REQUIRED');
    const me = await okJson(s.call('GET', '/v1/me', { key }));
    expect(me).toMatchObject({ role: 'viewer', grants: [] });
  });

  it('refuses a model key any change to members or keys', async () => {
    const dev = await addMember('admin');
    const model = await makeKey({ member: dev.id, grants: ['model'] });
    const r = await s.call('POST', '/v1/members', { key: model.key, body: { name: unique('m'), role: 'viewer' } });
    expect(`${r.status} ${r.json.error.code}`).toBe('403 PERSON_REQUIRED');
    const k = await s.call('POST', '/v1/keys', { key: model.key, body: { agent: 'support-bot' } });
    expect(`${k.status} ${k.json.error.code}`).toBe('403 PERSON_REQUIRED');
  });
});

describe('keys', () => {
  it('are shown once, listed without the key, and refused on their next call once revoked', async () => {
    const m = await addMember('approver');
    const made = await makeKey({ member: m.id, name: 'laptop' });
    expect(made.key).toMatch(/^tg_/);
    expect(made).toMatchObject({ name: 'laptop', member_id: m.id, status: 'active', hint: made.key.slice(-4), grants: [] });
    expect(made.created_by).toMatch(/^member:/);
    expect(await meWith(made.key)).toBe('ok');

    const listed = await s.call('GET', `/v1/keys?member=${m.id}`, { key: s.key('admin') });
    expect(listed.status).toBe(200);
    expect(listed.text).not.toContain(made.key);
    expect(listed.text).not.toMatch(/"hash"/);
    expect(listed.json.keys).toEqual([expect.objectContaining({ id: made.id, status: 'active' })]);
    // Within the minute a use is noted (docs/security.md): the list says when the key was last used.
    expect(listed.json.keys[0].last_used_at).not.toBeNull();

    const revoked = await okJson(s.call('POST', `/v1/keys/${made.id}/revoke`, { key: s.key('admin') }));
    expect(revoked).toMatchObject({ status: 'revoked', revoked_by: expect.stringMatching(/^member:/) });
    expect(await meWith(made.key)).toBe('401 KEY_REVOKED');
    const again = await okJson(s.call('POST', `/v1/keys/${made.id}/revoke`, { key: s.key('owner') }));
    expect(again.revoked_at).toBe(revoked.revoked_at);
    const r = await s.call('GET', '/v1/me', { key: made.key });
    expect(r.text).not.toContain(made.key);
  });

  it('is refused as expired once its expiry passes, though nothing else changed', async () => {
    // Far enough ahead that the key is made and used before it expires, even on a loaded machine.
    const expires = new Date(Date.now() + 4_000).toISOString();
    const made = await makeKey({ agent: 'support-bot', expires_at: expires });
    expect(made.expires_at).toBe(expires);
    const call = () =>
      s.call('POST', '/v1/agents/support-bot/calls', { key: made.key, body: { tool: 'read_order', arguments: { order: 'A-1' } } });
    expect((await call()).status).toBe(200);
    await sleep(Date.parse(expires) - Date.now() + 50);
    const r = await call();
    expect(`${r.status} ${r.json.error.code}`).toBe('401 KEY_EXPIRED');
    expect(r.text).not.toContain(made.key);
  });

  it('rotates into a new key, the old one working for the overlap and no longer', async () => {
    const m = await addMember('developer');
    const old = await makeKey({ member: m.id, name: 'ci' });
    const now = await okJson(s.call('POST', `/v1/keys/${old.id}/rotate`, { key: s.key('admin'), body: { overlap_seconds: 0 } }), 201);
    expect(now).toMatchObject({ name: 'ci', member_id: m.id, status: 'active', grants: ['catalogue'] });
    expect(now.previous).toMatchObject({ id: old.id, rotated_to: now.id, status: 'expired' });
    expect(await meWith(old.key)).toBe('401 KEY_EXPIRED');
    expect(await meWith(now.key)).toBe('ok');

    // A member rotates their own key with an overlap: both work until it ends.
    const later = await okJson(s.call('POST', `/v1/keys/${now.id}/rotate`, { key: now.key, body: { overlap_seconds: 3600 } }), 201);
    expect(await meWith(now.key)).toBe('ok');
    expect(await meWith(later.key)).toBe('ok');
    expect(Date.parse(later.previous.expires_at) - Date.now()).toBeGreaterThan(3500_000);
    const twice = await s.call('POST', `/v1/keys/${now.id}/rotate`, { key: s.key('admin'), body: { overlap_seconds: 0 } });
    expect(`${twice.status} ${twice.json.error.code}`).toBe('409 KEY_NOT_ACTIVE');
    const expired = await s.call('POST', `/v1/keys/${old.id}/rotate`, { key: s.key('admin'), body: { overlap_seconds: 0 } });
    expect(`${expired.status} ${expired.json.error.code}`).toBe('409 KEY_NOT_ACTIVE');
    const tooLong = await s.call('POST', `/v1/keys/${later.id}/rotate`, { key: s.key('admin'), body: { overlap_seconds: 31 * 86400 } });
    expect(`${tooLong.status} ${tooLong.json.error.code}`).toBe('400 INVALID_BODY');
  });

  it("lets a member see, rotate and revoke only their own keys, and only an owner touch an owner's", async () => {
    const a = await addMember('approver');
    const b = await addMember('approver');
    const ka = await makeKey({ member: a.id });
    const kb = await makeKey({ member: b.id });
    const mine = await okJson(s.call('GET', '/v1/keys', { key: ka.key }));
    expect(mine.keys.map((k: { id: string }) => k.id)).toEqual([ka.id]);
    const codeOf = async (p: Promise<{ status: number; json: LooseJson }>) => {
      const r = await p;
      return `${r.status} ${r.json?.error?.code}`;
    };
    expect(await codeOf(s.call('GET', `/v1/keys?member=${b.id}`, { key: ka.key }))).toBe('403 ROLE_REQUIRED');
    expect(await codeOf(s.call('GET', `/v1/keys/${kb.id}`, { key: ka.key }))).toBe('404 NOT_FOUND');
    expect(await codeOf(s.call('POST', `/v1/keys/${kb.id}/revoke`, { key: ka.key }))).toBe('403 ROLE_REQUIRED');
    expect(await codeOf(s.call('POST', '/v1/keys', { key: ka.key, body: { member: a.id } }))).toBe('403 ROLE_REQUIRED');
    expect(await meWith(kb.key)).toBe('ok');

    const owner = s.keys.members.find((m) => m.role === 'owner') as { id: string };
    expect(await codeOf(s.call('POST', '/v1/keys', { key: s.key('admin'), body: { member: owner.id } }))).toBe('403 OWNER_REQUIRED');
    const ownerKey = await makeKey({ member: owner.id, name: 'spare' });
    expect(await codeOf(s.call('POST', `/v1/keys/${ownerKey.id}/rotate`, { key: s.key('admin'), body: { overlap_seconds: 0 } }))).toBe(
      '403 OWNER_REQUIRED',
    );
    expect((await s.call('POST', `/v1/keys/${ownerKey.id}/revoke`, { key: s.key('admin') })).status).toBe(200);
  });

  it('refuses a body that names no holder, two holders, a bad agent or an expiry in the past, writing nothing', async () => {
    const before = (await okJson(s.call('GET', '/v1/keys', { key: s.key('owner') }))).keys.length;
    for (const body of [
      {},
      { member: 'x', agent: 'support-bot' },
      { agent: '../etc' },
      { agent: 'support-bot', expires_at: '2001-01-01T00:00:00Z' },
      { agent: 'support-bot', expires_at: 'tomorrow' },
      { agent: 'support-bot', grants: ['root'] },
      { agent: 'support-bot', extra: 1 },
    ]) {
      const r = await s.call('POST', '/v1/keys', { key: s.key('owner'), body });
      expect(`${r.status} ${r.json.error.code}`, JSON.stringify(body)).toBe('400 INVALID_BODY');
    }
    expect((await okJson(s.call('GET', '/v1/keys', { key: s.key('owner') }))).keys.length).toBe(before);
  });
});

describe('a removed member', () => {
  it('loses their keys at once and no longer counts for a pending approval', async () => {
    const m = await addMember('approver');
    const { key } = await makeKey({ member: m.id });
    const held = await okJson(
      s.call('POST', '/v1/agents/support-bot/calls', { key: s.key('agent'), body: { tool: 'issue_refund', arguments: { amount: '500' } } }),
    );
    expect(held.decision).toBe('require_approval');
    const before = await okJson(s.call('GET', `/v1/approvals/${held.approval.id}`, { key: s.key('owner') }));
    expect(before.eligible_approvers.map((x: { id: string }) => x.id)).toContain(m.id);

    await okJson(s.call('DELETE', `/v1/members/${m.id}`, { key: s.key('owner') }));
    expect(await meWith(key)).toBe('401 MEMBER_REMOVED');
    const theirs = await okJson(s.call('GET', `/v1/keys?member=${m.id}`, { key: s.key('owner') }));
    expect(theirs.keys.map((k: { status: string }) => k.status)).toEqual(['revoked']);
    const after = await okJson(s.call('GET', `/v1/approvals/${held.approval.id}`, { key: s.key('owner') }));
    expect(after.eligible_approvers.map((x: { id: string }) => x.id)).not.toContain(m.id);
    // Their public key still verifies what they signed.
    expect((await s.call('GET', `/v1/members/${m.id}/public-key`, { key: s.key('viewer') })).status).toBe(200);

    // Added again, they are a member with the new role, and their old key stays revoked.
    const back = await okJson(s.call('POST', '/v1/members', { key: s.key('owner'), body: { name: m.name, role: 'viewer' } }), 201);
    expect(back).toMatchObject({ id: m.id, role: 'viewer', removed_at: null });
    expect(await meWith(key)).toBe('401 KEY_REVOKED');
  });

  it('is still named as the decider of the requests they decided', async () => {
    const m = await addMember('approver');
    const { key } = await makeKey({ member: m.id });
    const held = await okJson(
      s.call('POST', '/v1/agents/support-bot/calls', { key: s.key('agent'), body: { tool: 'issue_refund', arguments: { amount: '400' } } }),
    );
    await okJson(s.call('POST', `/v1/approvals/${held.approval.id}/deny`, { key, body: { reason: 'no' } }));
    await okJson(s.call('DELETE', `/v1/members/${m.id}`, { key: s.key('admin') }));
    const after = await okJson(s.call('GET', `/v1/approvals/${held.approval.id}`, { key: s.key('viewer') }));
    expect(after).toMatchObject({ status: 'denied', decided_by: m.id, decided_by_name: m.name });
  });
});
