// Approvals signed with keys members hold, over real HTTP (docs/approver-keys.md): passkeys enrolled and asserted
// with a software authenticator (soft-authenticator.ts), device keys signing the content; every bad proof refused
// with its own code, nothing counted and the call still held; the setting that requires member-held keys, with
// eligibility following it in the gate and the decision map.
import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgeApproval, type LooseJson, postEdit, startServer, type TestServer } from './server-harness.ts';
import { SoftAuthenticator } from './soft-authenticator.ts';

let s: TestServer;
let clock = new Date('2026-03-01T09:00:00.000Z');
const ORIGIN = 'http://localhost:4317';
beforeAll(async () => {
  s = await startServer({ now: () => clock });
});
afterAll(async () => {
  await s.stop();
});

type Who = 'owner' | 'admin' | 'approver';
const member = (who: Who) => s.keys.members.find((m) => m.role === who) as { id: string; key: string };
const post = (who: Who, path: string, body: unknown = {}) => s.call('POST', path, { key: s.key(who), body, headers: { origin: ORIGIN } });

async function held(amount = '500'): Promise<string> {
  const r = await s.call('POST', '/v1/agents/support-bot/calls', {
    key: s.key('agent'),
    body: { tool: 'issue_refund', arguments: { amount, order: 'A-7' } },
  });
  expect(r.json.decision, JSON.stringify(r.json)).toBe('require_approval');
  return r.json.approval.id as string;
}
const status = async (id: string) => (await s.call('GET', `/v1/approvals/${id}`, { key: s.key('owner') })).json.status as string;

async function enrollPasskey(who: Who, authenticator: SoftAuthenticator): Promise<LooseJson> {
  const options = await post(who, '/v1/me/credentials/passkey/options');
  expect(options.status, options.text).toBe(200);
  const response = authenticator.register(options.json.options, ORIGIN);
  const enrolled = await post(who, '/v1/me/credentials/passkey', { response, issued_at: options.json.issued_at, label: 'laptop' });
  expect(enrolled.status, enrolled.text).toBe(201);
  return enrolled.json;
}

async function enrollDevice(who: Who): Promise<{ id: string; key: KeyObject }> {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const r = await post(who, '/v1/me/credentials/device', { public_key: publicKey.export({ type: 'spki', format: 'pem' }), label: 'cli' });
  expect(r.status, r.text).toBe(201);
  return { id: r.json.id as string, key: privateKey };
}

/** The challenge, and a passkey's decision body over it. */
async function passkeyBody(who: Who, id: string, decision: 'approved' | 'denied', authenticator: SoftAuthenticator, tweak = {}) {
  const ch = await post(who, `/v1/approvals/${id}/challenge`, { decision });
  expect(ch.status, ch.text).toBe(200);
  expect(ch.json.passkey, 'the member holds a passkey').not.toBeNull();
  const response = authenticator.assert(ch.json.passkey, ORIGIN, tweak);
  return { signed_content: ch.json.content as string, proof: { kind: 'passkey', credential_id: response.id, response } };
}

async function deviceBody(who: Who, id: string, decision: 'approved' | 'denied', device: { id: string; key: KeyObject }) {
  const ch = await post(who, `/v1/approvals/${id}/challenge`, { decision });
  expect(ch.status, ch.text).toBe(200);
  const signature = sign(null, Buffer.from(ch.json.content, 'utf8'), device.key).toString('base64');
  return { signed_content: ch.json.content as string, proof: { kind: 'device', credential_id: device.id, signature } };
}

async function refused(who: Who, id: string, verb: 'approve' | 'deny', body: unknown, code: string, httpStatus = 403) {
  const r = await post(who, `/v1/approvals/${id}/${verb}`, body);
  expect([r.status, r.json.error?.code], r.text).toEqual([httpStatus, code]);
  expect(await status(id)).toBe('pending');
}

describe('approver-held keys', () => {
  const authenticator = new SoftAuthenticator();
  let passkey: LooseJson;
  let device: { id: string; key: KeyObject };

  it('enrolls a passkey and a device key, listed with the custodial key and recorded', async () => {
    passkey = await enrollPasskey('approver', authenticator);
    expect(passkey).toMatchObject({
      kind: 'passkey',
      member: member('approver').id,
      algorithm: 'ES256',
      rp_id: 'localhost',
      label: 'laptop',
    });
    device = await enrollDevice('approver');
    const list = await s.call('GET', `/v1/members/${member('approver').id}/credentials`, { key: s.key('viewer') });
    const kinds = list.json.credentials.map((c: LooseJson) => c.kind);
    expect([kinds[0], ...kinds.slice(1).sort()]).toEqual(['custodial', 'device', 'passkey']);
    const pk = await s.call('GET', `/v1/members/${member('approver').id}/public-key`, { key: s.key('viewer') });
    expect(pk.json.credentials).toHaveLength(3);
    const changes = await s.call('GET', '/v1/identity/changes', { key: s.key('owner') });
    expect(changes.json.changes.filter((c: LooseJson) => c.action === 'credential.enrolled')).toHaveLength(2);
    // A private key is not what is enrolled; the same device key twice is refused.
    const secret = await post('approver', '/v1/me/credentials/device', { public_key: device.key.export({ type: 'pkcs8', format: 'pem' }) });
    expect([secret.status, secret.json.error.code]).toEqual([400, 'INVALID_BODY']);
    const publicHalf = list.json.credentials.find((c: LooseJson) => c.id === device.id).public_key;
    const again = await post('approver', '/v1/me/credentials/device', { public_key: publicHalf });
    expect([again.status, again.json.error.code]).toEqual([409, 'CREDENTIAL_EXISTS']);
  });

  it('approves with a passkey: the proof is kept and the counter moves', async () => {
    const id = await held();
    const r = await post('approver', `/v1/approvals/${id}/approve`, await passkeyBody('approver', id, 'approved', authenticator));
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({
      status: 'approved',
      decided_by: member('approver').id,
      proof: { kind: 'passkey', credential_id: passkey.id },
    });
    expect(JSON.parse(r.json.signed_content)).toMatchObject({
      id,
      decision: 'approved',
      policy_digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
    });
  });

  it('denies with a device key', async () => {
    const id = await held();
    const r = await post('approver', `/v1/approvals/${id}/deny`, { ...(await deviceBody('approver', id, 'denied', device)), reason: 'no' });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ status: 'denied', reason: 'no', proof: { kind: 'device', credential_id: device.id } });
  });

  it('refuses a replayed proof (PROOF_REPLAYED) and one over another request or decision (PROOF_CONTENT_MISMATCH)', async () => {
    const id = await held();
    const body = await passkeyBody('approver', id, 'approved', authenticator);
    expect((await post('approver', `/v1/approvals/${id}/approve`, body)).status).toBe(200);
    const replay = await post('approver', `/v1/approvals/${id}/approve`, body);
    expect([replay.status, replay.json.error.code]).toEqual([409, 'PROOF_REPLAYED']);
    const other = await held();
    await refused('approver', other, 'approve', body, 'PROOF_CONTENT_MISMATCH');
    const approveContent = await deviceBody('approver', other, 'approved', device);
    await refused('approver', other, 'deny', approveContent, 'PROOF_CONTENT_MISMATCH');
  });

  it('refuses an assertion over other content, without user verification, with a counter gone back, or tampered', async () => {
    const id = await held();
    await refused(
      'approver',
      id,
      'approve',
      await passkeyBody('approver', id, 'approved', authenticator, { challenge: 'AAAA' }),
      'PROOF_CONTENT_MISMATCH',
    );
    await refused(
      'approver',
      id,
      'approve',
      await passkeyBody('approver', id, 'approved', authenticator, { userVerified: false }),
      'PASSKEY_USER_NOT_VERIFIED',
    );
    await refused(
      'approver',
      id,
      'approve',
      await passkeyBody('approver', id, 'approved', authenticator, { counter: 1 }),
      'PASSKEY_COUNTER_REGRESSED',
    );
    const tampered = await passkeyBody('approver', id, 'approved', authenticator);
    const sig = Buffer.from(tampered.proof.response.response.signature, 'base64url');
    sig[sig.length - 1] = (sig[sig.length - 1] as number) ^ 1;
    tampered.proof.response.response.signature = sig.toString('base64url');
    await refused('approver', id, 'approve', tampered, 'PROOF_INVALID');
    const otherOrigin = await passkeyBody('approver', id, 'approved', authenticator, { origin: 'http://localhost.evil.example' });
    await refused('approver', id, 'approve', otherOrigin, 'PROOF_INVALID');
    // A good one after all that still counts.
    expect(
      (await post('approver', `/v1/approvals/${id}/approve`, await passkeyBody('approver', id, 'approved', authenticator))).status,
    ).toBe(200);
  });

  it("refuses a stale content (PROOF_STALE) and another member's credential (CREDENTIAL_NOT_OWN)", async () => {
    const id = await held();
    const body = await deviceBody('approver', id, 'approved', device);
    clock = new Date(clock.getTime() + 6 * 60_000);
    try {
      await refused('approver', id, 'approve', body, 'PROOF_STALE');
    } finally {
      clock = new Date(clock.getTime() - 6 * 60_000);
    }
    const adminDevice = await enrollDevice('admin');
    const theirs = await deviceBody('approver', id, 'approved', adminDevice);
    await refused('approver', id, 'approve', theirs, 'CREDENTIAL_NOT_OWN');
    // Signed by another member's key under the approver's own credential id: the signature does not hold.
    const forged = await deviceBody('approver', id, 'approved', { id: device.id, key: adminDevice.key });
    await refused('approver', id, 'approve', forged, 'PROOF_INVALID');
  });

  it('refuses a revoked credential (CREDENTIAL_REVOKED); an owner may revoke it, a developer may not', async () => {
    const extra = await enrollDevice('approver');
    const id = await held();
    const body = await deviceBody('approver', id, 'approved', extra);
    const path = `/v1/members/${member('approver').id}/credentials/${extra.id}/revoke`;
    const dev = await s.call('POST', path, { key: s.key('developer'), body: {} });
    expect([dev.status, dev.json.error.code]).toEqual([403, 'ROLE_REQUIRED']);
    expect((await post('owner', path)).json.revoked_at).not.toBeNull();
    await refused('approver', id, 'approve', body, 'CREDENTIAL_REVOKED');
  });

  it('refuses to claim an approval written into the database (APPROVAL_UNSIGNED): unsigned, or signed for another request', async () => {
    const signed = await held();
    const decided = await post('approver', `/v1/approvals/${signed}/approve`, await deviceBody('approver', signed, 'approved', device));
    expect(decided.status).toBe(200);
    const claim = (id: string) =>
      s.call('POST', `/v1/approvals/${id}/claim`, { key: s.key('agent'), body: { arguments: { amount: '500', order: 'A-7' } } });
    for (const from of [{}, { decided_by: member('approver').id }, decided.json]) {
      const id = await held();
      await forgeApproval(s, id, { ...from, proof: from === decided.json ? JSON.stringify(decided.json.proof) : null });
      const r = await claim(id);
      expect([r.status, r.json.error?.code], r.text).toEqual([409, 'APPROVAL_UNSIGNED']);
    }
    expect((await claim(signed)).status).toBe(200);
  });

  it('with approvals_require_member_keys, refuses custodial decisions and counts only members holding a key', async () => {
    const settings = 'approval_ttl_seconds: 86400\napproved_rulesets_only: false\napprovals_require_member_keys: true\n';
    const edit = await postEdit(s, 'settings.yaml', s.key('owner'), { content: settings, reason: 'test: member keys' });
    expect(edit.status, edit.text).toBe(201);
    try {
      const id = await held();
      const approval = await s.call('GET', `/v1/approvals/${id}`, { key: s.key('owner') });
      // The approver and the admin hold keys of their own; the owner holds only the custodial one.
      expect([...approval.json.approvers].sort()).toEqual([member('approver').id, member('admin').id].sort());
      await refused('approver', id, 'approve', {}, 'PROOF_REQUIRED');
      const map = await s.call('GET', '/v1/agents/support-bot/decision-map', { key: s.key('owner') });
      expect(map.status, map.text).toBe(200);
      expect(JSON.stringify(map.json)).not.toContain(member('owner').id);
      expect((await post('approver', `/v1/approvals/${id}/approve`, await deviceBody('approver', id, 'approved', device))).status).toBe(
        200,
      );
    } finally {
      const back = await postEdit(s, 'settings.yaml', s.key('owner'), { content: settings.replace('true', 'false'), reason: 'test: back' });
      expect(back.status, back.text).toBe(201);
    }
  });
});
