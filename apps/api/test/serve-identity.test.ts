// `tollgate serve --identity FILE` as a child process (cli/identity-file.ts, cli/commands/serve.ts): the file's
// issuers answer in the metadata, the console's CSP may reach the issuer it signs in with, a token acts as its
// member, and TOLLGATE_IDENTITY_FILE names the file when the flag does not (docs/cli.md, docs/security.md).
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Provider, startProvider } from './identity-provider.ts';
import { spawnServer } from './server-harness.ts';

const RESOURCE = 'https://tollgate.test';
let dir: string;
let file: string;
let provider: Provider;
const children: ChildProcess[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tollgate-serve-identity-'));
  provider = await startProvider();
  file = join(dir, 'identity.json');
  writeFileSync(
    file,
    JSON.stringify({
      resource: RESOURCE,
      issuers: [{ issuer: provider.issuer, member_claim: 'email', console: { client_id: 'tollgate-console', scopes: ['openid'] } }],
    }),
  );
});

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await provider?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function served(args: string[], env: Record<string, string> = {}): Promise<string> {
  const data = mkdtempSync(join(dir, 'data-'));
  const { url, child } = await spawnServer(data, args, { env });
  children.push(child);
  return url;
}

describe('serve --identity', () => {
  it("answers the file's issuers, lets the console reach them, and takes their tokens", async () => {
    const url = await served(['--identity', file]);
    const metadata = await fetch(`${url}/.well-known/oauth-protected-resource/mcp`);
    expect(await metadata.json()).toMatchObject({ resource: `${RESOURCE}/mcp`, authorization_servers: [provider.issuer] });
    expect(metadata.headers.get('content-security-policy')).toContain(`connect-src 'self' ${new URL(provider.issuer).origin}`);
    const me = await fetch(`${url}/v1/me`, {
      headers: { authorization: `Bearer ${await provider.token({ aud: RESOURCE, email: 'olivia' })}` },
    });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ name: 'olivia', role: 'owner' });
  }, 40_000);

  it('reads TOLLGATE_IDENTITY_FILE when no flag is given; without either, keys only and no metadata', async () => {
    const url = await served([], { TOLLGATE_IDENTITY_FILE: file });
    expect((await fetch(`${url}/v1/identity/issuers`).then((r) => r.json())) as unknown).toEqual({
      issuers: [{ issuer: provider.issuer, client_id: 'tollgate-console', scopes: ['openid'] }],
    });
    const plain = await served([], { TOLLGATE_IDENTITY_FILE: '' });
    const none = await fetch(`${plain}/.well-known/oauth-protected-resource/mcp`);
    expect(none.status).toBe(404);
    expect(((await none.json()) as { error: { code: string } }).error.code).toBe('NO_ROUTE');
    const refused = await fetch(`${plain}/v1/me`, {
      headers: { authorization: `Bearer ${await provider.token({ aud: RESOURCE, email: 'olivia' })}` },
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer');
  }, 60_000);
});
