// `tollgate approvals key create|approve|deny` end to end against a real server over loopback HTTP: a key file
// made and enrolled, held calls decided with it and read back with a device proof that verifies with the file's
// public key, and every refusal (a key not enrolled, another member's, a revoked one, no API key, no server).
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, verify } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_WAIT_MS } from '../src/cli/server-client.ts';
import { runCli, withEnv, workspace } from './cli-harness.ts';
import { type LooseJson, startServer, type TestServer } from './server-harness.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s.stop();
});

type Who = 'approver' | 'owner';
const memberId = (who: Who) => s.keys.members.find((m) => m.role === who)?.id as string;

/** The CLI run as `who`, with their API key in the environment and --server at the test server. */
const cliAs = (who: Who, ...argv: string[]) => withEnv('TOLLGATE_API_KEY', s.key(who), () => runCli(...argv, '--server', s.url));

async function held(): Promise<string> {
  const r = await s.call('POST', '/v1/agents/support-bot/calls', {
    key: s.key('agent'),
    body: { tool: 'issue_refund', arguments: { amount: '500', order: 'A-7' } },
  });
  expect(r.json.decision).toBe('require_approval');
  return r.json.approval.id as string;
}

async function credentials(who: Who): Promise<LooseJson[]> {
  const r = await s.call('GET', `/v1/members/${memberId(who)}/credentials`, { key: s.key(who) });
  expect(r.status, r.text).toBe(200);
  return r.json.credentials;
}

/** A key file made and enrolled by `who`; its credential as the server lists it. */
async function enrolledKey(who: Who, label?: string): Promise<{ file: string; credential: LooseJson }> {
  const file = join(workspace().dir, 'device.pem');
  const run = await cliAs(who, 'approvals', 'key', 'create', '--out', file, '--json', ...(label ? ['--label', label] : []));
  expect(run.code, run.stderr).toBe(0);
  return { file, credential: JSON.parse(run.stdout) };
}

const pkcs8 = (key: KeyObject) => key.export({ type: 'pkcs8', format: 'pem' }) as string;
const publicPemOf = (file: string) => createPublicKey(createPrivateKey(readFileSync(file, 'utf8'))).export({ type: 'spki', format: 'pem' });

describe('tollgate approvals key create', () => {
  it('writes an Ed25519 PKCS#8 key readable by its owner only and enrolls its public half as a device key', async () => {
    const file = join(workspace().dir, 'laptop.pem');
    const run = await cliAs('approver', 'approvals', 'key', 'create', '--out', file, '--label', 'laptop');
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(createPrivateKey(readFileSync(file, 'utf8')).asymmetricKeyType).toBe('ed25519');
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const listed = (await credentials('approver')).find((c) => c.kind === 'device' && c.label === 'laptop');
    expect(listed).toMatchObject({ member: memberId('approver'), revoked_at: null });
    expect(createPublicKey(listed.public_key).export({ type: 'spki', format: 'pem' })).toBe(publicPemOf(file));
    expect(run.stdout).toContain(listed.id);
    expect(run.stdout).toContain(listed.fingerprint);
  });

  it('keeps an existing file without --force, enrolling nothing, and replaces it with --force', async () => {
    const { file } = await enrolledKey('approver');
    const before = readFileSync(file, 'utf8');
    const count = (await credentials('approver')).length;
    const refused = await cliAs('approver', 'approvals', 'key', 'create', '--out', file);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('FILE_EXISTS');
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(await credentials('approver')).toHaveLength(count);

    const forced = await cliAs('approver', 'approvals', 'key', 'create', '--out', file, '--force');
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).not.toBe(before);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('leaves nothing behind when the server refuses the enrollment, and enrolls nothing when the file cannot be written', async () => {
    const dir = workspace().dir;
    const file = join(dir, 'device.pem');
    const refused = await withEnv('TOLLGATE_API_KEY', 'tg_not-a-key', () =>
      runCli('approvals', 'key', 'create', '--out', file, '--server', s.url),
    );
    expect(refused.code).toBe(4);
    expect(refused.stderr).toMatch(/^[A-Z_]+: .*\(the server answered 401\)/);
    expect(readdirSync(dir)).toEqual([]);

    const count = (await credentials('approver')).length;
    const unwritable = await cliAs('approver', 'approvals', 'key', 'create', '--out', join(dir, 'no-such-folder', 'k.pem'));
    expect(unwritable.code).toBe(2);
    expect(unwritable.stderr).toContain('UNWRITABLE');
    expect(await credentials('approver')).toHaveLength(count);
  });
});

describe('tollgate approvals approve|deny --key', () => {
  it('approves a held call with the key file: read back with a device proof whose signature verifies with the file', async () => {
    const { file, credential } = await enrolledKey('approver');
    const id = await held();
    const run = await cliAs('approver', 'approvals', 'approve', id, '--key', file, '--reason', 'customer is right');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(
      `approved ${id}: issue_refund by support-bot, signed with device key ${credential.id} (${credential.fingerprint})\n`,
    );

    const read = await s.call('GET', `/v1/approvals/${id}`, { key: s.key('viewer') });
    expect(read.json).toMatchObject({ status: 'approved', decided_by: memberId('approver'), reason: 'customer is right' });
    expect(read.json.proof).toMatchObject({ kind: 'device', credential_id: credential.id });
    const content = JSON.parse(read.json.signed_content);
    expect(content).toMatchObject({ id, decision: 'approved', decided_by: memberId('approver'), tool: 'issue_refund' });
    const signature = Buffer.from(read.json.signature, 'base64');
    expect(verify(null, Buffer.from(read.json.signed_content, 'utf8'), publicPemOf(file), signature)).toBe(true);
    expect(verify(null, Buffer.from(read.json.signed_content.replace('approved', 'denied'), 'utf8'), publicPemOf(file), signature)).toBe(
      false,
    );
  });

  it('denies with the key file, and --json prints the API’s answer', async () => {
    const { file, credential } = await enrolledKey('approver');
    const id = await held();
    const run = await cliAs('approver', 'approvals', 'deny', id, '--key', file, '--json');
    expect(run.code, run.stderr).toBe(0);
    const answer = JSON.parse(run.stdout);
    expect(answer).toMatchObject({ id, status: 'denied', tool: 'issue_refund', agent: 'support-bot' });
    expect(answer.proof).toMatchObject({ kind: 'device', credential_id: credential.id });
    expect(JSON.parse(answer.signed_content).decision).toBe('denied');
    expect(verify(null, Buffer.from(answer.signed_content, 'utf8'), publicPemOf(file), Buffer.from(answer.signature, 'base64'))).toBe(true);
  });

  it('decides a held call whose arguments hold a number kept as written (1.50), and --json prints it as written', async () => {
    const { file } = await enrolledKey('approver');
    const r = await s.call('POST', '/v1/agents/support-bot/calls', {
      key: s.key('agent'),
      raw: '{"tool": "issue_refund", "arguments": {"amount": "500", "order": "A-8", "fee": 1.50}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(r.json.decision, r.text).toBe('require_approval');
    const run = await cliAs('approver', 'approvals', 'approve', r.json.approval.id, '--key', file, '--json');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('"fee": 1.50');
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'approved', arguments: { fee: 1.5 } });
  });

  it('refuses a key file not enrolled, and another member’s, without deciding (KEY_NOT_ENROLLED, exit 1)', async () => {
    const id = await held();
    const { file: ownersFile } = await enrolledKey('owner');
    const stray = workspace().file('stray.pem', pkcs8(generateKeyPairSync('ed25519').privateKey));
    for (const file of [stray, ownersFile]) {
      const run = await cliAs('approver', 'approvals', 'approve', id, '--key', file);
      expect(run.code, file).toBe(1);
      expect(run.stderr).toContain('KEY_NOT_ENROLLED');
      expect(run.stderr).toContain('tollgate approvals key create');
    }
    expect((await s.call('GET', `/v1/approvals/${id}`, { key: s.key('viewer') })).json.status).toBe('pending');
  });

  it('passes on the server’s refusal of a revoked key (CREDENTIAL_REVOKED, exit 4), the call still held', async () => {
    const { file, credential } = await enrolledKey('approver');
    const revoke = await s.call('POST', `/v1/members/${memberId('approver')}/credentials/${credential.id}/revoke`, {
      key: s.key('approver'),
      body: {},
    });
    expect(revoke.status, revoke.text).toBe(200);
    const id = await held();
    const run = await cliAs('approver', 'approvals', 'approve', id, '--key', file, '--json');
    expect(run.code).toBe(4);
    expect(run.stderr).toMatch(/^CREDENTIAL_REVOKED: /);
    expect(JSON.parse(run.stdout).errors[0]).toMatchObject({ code: 'CREDENTIAL_REVOKED' });
    expect((await s.call('GET', `/v1/approvals/${id}`, { key: s.key('viewer') })).json.status).toBe('pending');
  });

  it('refuses a key file that is not an Ed25519 private key (KEY_FILE_INVALID), and a missing one (UNREADABLE)', async () => {
    const w = workspace();
    const notKey = w.file('not-a-key.pem', 'hello\n');
    const rsa = w.file('rsa.pem', pkcs8(generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey));
    for (const file of [notKey, rsa]) {
      const run = await cliAs('approver', 'approvals', 'approve', 'x', '--key', file);
      expect([run.code, run.stderr.includes('KEY_FILE_INVALID')], file).toEqual([2, true]);
    }
    const missing = await cliAs('approver', 'approvals', 'deny', 'x', '--key', join(w.dir, 'none.pem'));
    expect([missing.code, missing.stderr.includes('UNREADABLE')]).toEqual([2, true]);
  });
});

describe('the server and the API key', () => {
  it('says the API key is missing, and never takes it from a flag', async () => {
    const { file } = await enrolledKey('approver');
    for (const argv of [
      ['approvals', 'approve', 'x', '--key', file],
      ['approvals', 'key', 'create', '--out', join(workspace().dir, 'k.pem')],
    ]) {
      const run = await withEnv('TOLLGATE_API_KEY', '', () => runCli(...argv, '--server', s.url));
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^API_KEY_MISSING: set TOLLGATE_API_KEY/);
    }
    const flag = await runCli('approvals', 'approve', 'x', '--key', file, '--api-key', 'tg_x');
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain("Unknown option '--api-key'");
  });

  it('says a server that refuses connections cannot be reached (UNREACHABLE, exit 3)', async () => {
    const { file } = await enrolledKey('approver');
    const closed = await listening(createServer());
    const url = `http://127.0.0.1:${port(closed)}`;
    await new Promise((resolve) => closed.close(resolve));
    const run = await withEnv('TOLLGATE_API_KEY', s.key('approver'), () =>
      runCli('approvals', 'approve', 'x', '--key', file, '--server', url),
    );
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(`UNREACHABLE: the server at ${url} cannot be reached: ECONNREFUSED\n`);
  });

  it(
    'gives up on a server that never answers within the bound (UNREACHABLE, exit 3)',
    async () => {
      const { file } = await enrolledKey('approver');
      const sockets = new Set<Socket>();
      const silent = await listening(createServer((socket) => sockets.add(socket)));
      try {
        const url = `http://127.0.0.1:${port(silent)}`;
        const started = Date.now();
        const run = await withEnv('TOLLGATE_SERVER', url, () =>
          withEnv('TOLLGATE_API_KEY', s.key('approver'), () => runCli('approvals', 'approve', 'x', '--key', file)),
        );
        const elapsed = Date.now() - started;
        expect(run.code).toBe(3);
        expect(run.stderr).toBe(`UNREACHABLE: the server at ${url} cannot be reached: no answer within ${SERVER_WAIT_MS / 1000} s\n`);
        expect(elapsed).toBeGreaterThanOrEqual(SERVER_WAIT_MS - 100);
        expect(elapsed).toBeLessThan(SERVER_WAIT_MS + 3000);
      } finally {
        for (const socket of sockets) socket.destroy();
        await new Promise((resolve) => silent.close(resolve));
      }
    },
    SERVER_WAIT_MS + 10_000,
  );

  it('refuses a --server that is not an http URL as a usage error', async () => {
    const run = await withEnv('TOLLGATE_API_KEY', s.key('approver'), () =>
      runCli('approvals', 'approve', 'x', '--key', 'k.pem', '--server', 'ftp://example.com'),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('is an http:// or https:// URL');
  });
});

function listening(server: Server): Promise<Server> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function port(server: Server): number {
  return (server.address() as { port: number }).port;
}
