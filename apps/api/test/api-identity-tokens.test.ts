// Bearer tokens from OpenID providers beside keys (docs/security.md, "Signing in through an identity provider"):
// real providers on loopback (oauth2-mock-server), a server with an identity naming two of them, and every
// refusal answered with its code and the challenge that names the protected resource metadata.
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityFrom, type Provider, silentIssuer, startProvider, withPayload } from './identity-provider.ts';
import { startServer, type TestServer } from './server-harness.ts';

let s: TestServer;
/** Configured: members by email, agents by client_id, and a console block. */
let plain: Provider;
/** Configured: roles mapped from groups. */
let mapped: Provider;
/** Not configured. */
let stranger: Provider;
/** Configured, and stopped before any token of it is seen. */
let gone: Provider;
let silent: Awaited<ReturnType<typeof silentIssuer>>;

const GROUPS = { claim: 'groups', map: { 'tg-owners': 'owner', 'tg-approvers': 'approver', 'tg-viewers': 'viewer' } };

beforeAll(async () => {
  [plain, mapped, stranger, gone] = await Promise.all([startProvider(), startProvider(), startProvider(), startProvider()]);
  silent = await silentIssuer();
  s = await startServer({
    identity: (url) =>
      identityFrom(
        {
          resource: url,
          issuers: [
            {
              issuer: plain.issuer,
              member_claim: 'email',
              agent_claim: 'client_id',
              console: { client_id: 'tollgate-console', scopes: ['openid', 'email'] },
            },
            { issuer: mapped.issuer, member_claim: 'email', roles: GROUPS },
            { issuer: gone.issuer, member_claim: 'email' },
            { issuer: `${silent.url}/`, member_claim: 'email' },
          ],
        },
        1_000,
      ),
  });
}, 30_000);

afterAll(async () => {
  s?.ctx.events.close();
  await s?.stop();
  await Promise.all([plain, mapped, stranger, gone].map((p) => p?.stop()));
  await silent?.stop();
});

const me = (token: string) => s.call('GET', '/v1/me', { key: token });
const aud = () => s.url;

/** A 401 with its code and the challenge naming the metadata, with invalid_token since a bearer was sent. */
async function refused(token: string, code: string): Promise<void> {
  const res = await fetch(`${s.url}/v1/me`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(401);
  expect(((await res.json()) as { error: { code: string } }).error.code).toBe(code);
  expect(res.headers.get('www-authenticate')).toBe(
    `Bearer resource_metadata="${s.url}/.well-known/oauth-protected-resource/mcp", error="invalid_token"`,
  );
}

describe('bearer tokens on /v1', () => {
  it("acts as the member the token's email names, with their stored role, beside keys", async () => {
    const r = await me(await plain.token({ aud: aud(), email: 'olivia' }));
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ name: 'olivia', role: 'owner', grants: ['catalogue'] });
    // A token for the MCP resource (RFC 8707) is for this Tollgate too.
    expect((await me(await plain.token({ aud: `${s.url}/mcp`, email: 'vic' }))).json).toMatchObject({ name: 'vic', role: 'viewer' });
    expect((await me(s.key('admin'))).json).toMatchObject({ name: 'adam', role: 'admin' });
  });

  it('acts as the agent its client_id names when it names no member', async () => {
    const token = await plain.token({ aud: aud(), client_id: 'support-bot' });
    const r = await s.call('POST', '/v1/agents/support-bot/calls', {
      key: token,
      body: { tool: 'read_order', arguments: { order: 'A-1' } },
    });
    expect(r.status).toBe(200);
    expect(r.json.decision).toBe('allow');
  });

  it('refuses an expired token and one not yet valid as TOKEN_EXPIRED', async () => {
    const now = Math.floor(Date.now() / 1000);
    await refused(await plain.token({ aud: aud(), email: 'olivia', iat: now - 600, exp: now - 120 }), 'TOKEN_EXPIRED');
    await refused(await plain.token({ aud: aud(), email: 'olivia', nbf: now + 600 }), 'TOKEN_EXPIRED');
    // Within the 30 s of clock skew allowed, it still acts.
    expect((await me(await plain.token({ aud: aud(), email: 'olivia', nbf: now + 10 }))).status).toBe(200);
  });

  it('refuses a token for another audience as TOKEN_AUDIENCE', async () => {
    await refused(await plain.token({ aud: 'https://elsewhere.example', email: 'olivia' }), 'TOKEN_AUDIENCE');
    await refused(await plain.token({ email: 'olivia' }), 'TOKEN_AUDIENCE');
  });

  it('refuses an issuer not configured as TOKEN_ISSUER, without asking it', async () => {
    const token = await stranger.token({ aud: aud(), email: 'olivia' });
    await stranger.stop();
    // Were it asked, the stopped provider would answer ISSUER_UNAVAILABLE.
    await refused(token, 'TOKEN_ISSUER');
  });

  it('refuses a tampered payload, an unknown key, alg none and HS256 as TOKEN_INVALID', async () => {
    const good = await plain.token({ aud: aud(), email: 'vic' });
    await refused(
      withPayload(good, (p) => {
        p.email = 'olivia';
      }),
      'TOKEN_INVALID',
    );
    // Signed by another provider's key, naming this one as its issuer.
    await refused(await mapped.token({ aud: aud(), email: 'olivia', iss: plain.issuer }), 'TOKEN_INVALID');
    const [, payload] = good.split('.') as [string, string];
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    await refused(none, 'TOKEN_INVALID');
    const guessed = await new SignJWT({ email: 'olivia' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(plain.issuer)
      .setAudience(aud())
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('secret'));
    await refused(guessed, 'TOKEN_INVALID');
    await refused('not-a-token', 'TOKEN_INVALID');
  });

  it('refuses a token that names no member it knows as TOKEN_IDENTITY', async () => {
    await refused(await plain.token({ aud: aud(), email: 'nobody@example.com' }), 'TOKEN_IDENTITY');
    await refused(await plain.token({ aud: aud(), sub: 'someone' }), 'TOKEN_IDENTITY');
    await refused(await plain.token({ aud: aud(), client_id: '../policies/x' }), 'TOKEN_IDENTITY');
  });

  it('maps groups to the highest role: a new member is added with it, a known one re-roled', async () => {
    const r = await me(await mapped.token({ aud: aud(), email: 'nina@example.com', groups: ['tg-viewers', 'tg-owners'] }));
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ name: 'nina@example.com', role: 'owner' });
    expect(await s.ctx.state.findMember('nina@example.com')).toMatchObject({ name: 'nina@example.com', role: 'owner' });

    const vic = await me(await mapped.token({ aud: aud(), email: 'vic', groups: ['tg-approvers'] }));
    expect(vic.json).toMatchObject({ name: 'vic', role: 'approver', grants: [] });
    expect((await s.ctx.state.findMember('vic'))?.role).toBe('approver');

    await refused(await mapped.token({ aud: aud(), email: 'zoe@example.com', groups: ['unrelated'] }), 'TOKEN_IDENTITY');
    expect(await s.ctx.state.findMember('zoe@example.com')).toBeUndefined();
  });

  it("refuses a removed member's token as MEMBER_REMOVED", async () => {
    const removed = await s.ctx.state.identity.removeMember('dev', { kind: 'operator' });
    expect('ok' in removed).toBe(true);
    await refused(await plain.token({ aud: aud(), email: 'dev' }), 'MEMBER_REMOVED');
  });

  it('answers 503 ISSUER_UNAVAILABLE, never an allow, when the issuer is down or silent, within the bound', async () => {
    const token = await gone.token({ aud: aud(), email: 'olivia' });
    await gone.stop();
    const down = await me(token);
    expect(down.status).toBe(503);
    expect(down.json.error.code).toBe('ISSUER_UNAVAILABLE');

    const signer = await startProvider();
    try {
      const hanging = await signer.token({ aud: aud(), email: 'olivia', iss: `${silent.url}/` });
      const started = Date.now();
      const slow = await me(hanging);
      expect(slow.status).toBe(503);
      expect(slow.json.error.code).toBe('ISSUER_UNAVAILABLE');
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      await signer.stop();
    }
  });

  it('names the metadata on a 401 without a bearer too, without invalid_token', async () => {
    const res = await fetch(`${s.url}/v1/me`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${s.url}/.well-known/oauth-protected-resource/mcp"`);
  });
});

describe('the public identity routes', () => {
  it('describes /mcp and the server as protected resources (RFC 9728)', async () => {
    const mcp = await s.call('GET', '/.well-known/oauth-protected-resource/mcp');
    expect(mcp.status).toBe(200);
    expect(mcp.json).toEqual({
      resource: `${s.url}/mcp`,
      authorization_servers: [plain.issuer, mapped.issuer, gone.issuer, `${silent.url}/`],
      bearer_methods_supported: ['header'],
      resource_name: 'Tollgate',
    });
    expect((await s.call('GET', '/.well-known/oauth-protected-resource')).json.resource).toBe(s.url);
  });

  it('lists the issuers the console may sign in with, without a key', async () => {
    const r = await s.call('GET', '/v1/identity/issuers');
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ issuers: [{ issuer: plain.issuer, client_id: 'tollgate-console', scopes: ['openid', 'email'] }] });
  });
});
