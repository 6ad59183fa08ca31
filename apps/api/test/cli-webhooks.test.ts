// tollgate webhooks add|list|remove|rotate-secret (docs/cli.md, docs/webhooks.md): the operator's subscriptions on a
// data folder, the secret printed once (and again once when rotated) and never listed, the URL checked as the API checks it, an unknown id NOT_FOUND; the secret
// stored sealed with the member key secret on a data folder and on PostgreSQL, and a command given another secret
// refused (MEMBER_KEY_SECRET_MISMATCH).
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { freshSchema, POSTGRES_UNREACHABLE } from '../../../packages/store/test/postgres-fixture.ts';
import { openDatabase } from '../src/server/state/db.ts';
import { SEALED_SECRET_PREFIX } from '../src/server/state/webhooks/model.ts';
import { openWebhookSecret } from '../src/server/state/webhooks/sealed-secret.ts';
import { runCli, withEnv, workspace } from './cli-harness.ts';
import { testCustodialKeys } from './custodial-test-keys.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function dataDir(): string {
  const { dir } = workspace();
  dirs.push(dir);
  return dir;
}

const OTHER_SECRET = 'another-member-key-secret-of-at-least-32-chars';

/** `webhooks add` of a public https URL on `where` (--data DIR or --database URL): the subscription, secret shown. */
async function added(...where: string[]): Promise<{ id: string; secret: string }> {
  const r = await runCli('webhooks', 'add', 'https://93.184.216.34/hook', '--event', 'approval.pending', ...where, '--json');
  expect([r.code, r.stderr]).toEqual([0, '']);
  return JSON.parse(r.stdout);
}

/** What subscription `id`'s stored secret is: sealed, holding nothing of the plain one, and opened by the tests' secret to it. */
function expectSealed(stored: string | undefined, plain: string, id: string): void {
  expect(stored?.startsWith(SEALED_SECRET_PREFIX)).toBe(true);
  expect(stored).not.toContain(plain.slice('whsec_'.length));
  expect(openWebhookSecret(stored as string, testCustodialKeys(), id)).toBe(plain);
}

describe('tollgate webhooks', () => {
  it('adds a subscription with its secret shown once, lists it without the secret, and removes it', async () => {
    const data = dataDir();
    const added = await runCli(
      'webhooks',
      'add',
      'https://93.184.216.34/hook',
      '--event',
      'approval.pending',
      '--event',
      'approval.approved',
      '--event',
      'decision.denied',
      '--for-agent',
      'support-bot',
      '--for-tool',
      'issue_refund',
      '--for-agent',
      'billing-bot',
      '--format',
      'slack',
      '--data',
      data,
      '--json',
    );
    expect(added.code).toBe(0);
    const made = JSON.parse(added.stdout);
    expect(made).toMatchObject({
      url: 'https://93.184.216.34/hook',
      events: ['approval.pending', 'approval.approved', 'decision.denied'],
      format: 'slack',
      filters: { agents: ['support-bot', 'billing-bot'], tools: ['issue_refund'] },
    });
    expect(made.secret).toMatch(/^whsec_/);
    const listed = await runCli('webhooks', 'list', '--data', data, '--json');
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({
        id: made.id,
        created_by: 'operator',
        include_arguments: false,
        filters: { agents: ['support-bot', 'billing-bot'], tools: ['issue_refund'] },
      }),
    ]);
    expect(listed.stdout).not.toContain(made.secret);
    expect((await runCli('webhooks', 'remove', made.id, '--data', data)).code).toBe(0);
    expect(JSON.parse((await runCli('webhooks', 'list', '--data', data, '--json')).stdout)).toEqual([]);
    const again = await runCli('webhooks', 'remove', made.id, '--data', data);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('NOT_FOUND');
  });

  it('rotates a secret: the new one printed once, stored sealed for its subscription; an unknown id is NOT_FOUND', async () => {
    const data = dataDir();
    const made = await added('--data', data);
    const r = await runCli('webhooks', 'rotate-secret', made.id, '--data', data, '--json');
    expect([r.code, r.stderr]).toEqual([0, '']);
    const rotated = JSON.parse(r.stdout) as { id: string; secret: string };
    expect(rotated.id).toBe(made.id);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(made.secret);
    const db = openDatabase(join(data, 'tollgate.db'));
    try {
      const row = db.prepare('SELECT secret FROM webhook_subscriptions WHERE id = ?').get(made.id) as { secret: string } | undefined;
      expectSealed(row?.secret, rotated.secret, made.id);
      const entry = db.prepare("SELECT COUNT(*) AS n FROM record_entries WHERE kind = 'webhook.secret_rotated'").get() as { n: number };
      expect(entry.n).toBe(1);
    } finally {
      db.close();
    }
    const plain = await runCli('webhooks', 'rotate-secret', made.id, '--data', data);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(new RegExp(`^${made.id}  https://93\\.184\\.216\\.34/hook\\nsecret \\(shown once\\): whsec_`));
    const missing = await runCli('webhooks', 'rotate-secret', 'wh_none', '--data', data);
    expect([missing.code, missing.stderr]).toEqual([1, expect.stringContaining('NOT_FOUND: no webhook wh_none')]);
  });

  it('refuses a loopback or http URL unless the operator allows it, and an unknown event as usage', async () => {
    const data = dataDir();
    for (const url of ['https://127.0.0.1/hook', 'https://localhost/hook', 'http://93.184.216.34/hook']) {
      const r = await runCli('webhooks', 'add', url, '--event', 'approval.pending', '--data', data);
      expect([r.code, r.stderr.includes('WEBHOOK_URL_REFUSED')]).toEqual([1, true]);
    }
    const allowed = await withEnv('TOLLGATE_WEBHOOKS_ALLOW_HTTP', '1', () =>
      withEnv('TOLLGATE_WEBHOOKS_ALLOW_PRIVATE', '1', () =>
        runCli('webhooks', 'add', 'http://127.0.0.1:9/hook', '--event', 'approval.denied', '--data', data),
      ),
    );
    expect(allowed.code).toBe(0);
    const bad = await runCli('webhooks', 'add', 'https://93.184.216.34/hook', '--event', 'approval.nope', '--data', data);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--event is one of');
  });
});

describe('tollgate webhooks: the secret at rest', () => {
  it('stores it sealed on a data folder; a command given another member key secret is refused', async () => {
    const data = dataDir();
    const made = await added('--data', data);
    const db = openDatabase(join(data, 'tollgate.db'));
    try {
      const row = db.prepare('SELECT secret FROM webhook_subscriptions WHERE id = ?').get(made.id) as { secret: string } | undefined;
      expectSealed(row?.secret, made.secret, made.id);
    } finally {
      db.close();
    }
    // No member in this folder: it is the webhook's secret that the other secret does not open.
    const refused = await withEnv('TOLLGATE_MEMBER_KEY_SECRET', OTHER_SECRET, () => runCli('webhooks', 'list', '--data', data));
    expect([refused.code, refused.stderr]).toEqual([2, expect.stringContaining('MEMBER_KEY_SECRET_MISMATCH')]);
  });

  it.skipIf(POSTGRES_UNREACHABLE !== undefined)('stores it sealed on PostgreSQL; a command given another secret is refused', async () => {
    const schema = await freshSchema('cli_whseal');
    const pool = new pg.Pool({ connectionString: schema.url, max: 1 });
    try {
      expect((await runCli('migrate', '--database', schema.url)).code).toBe(0);
      const made = await added('--database', schema.url);
      const { rows } = await pool.query<{ secret: string }>('SELECT secret FROM webhook_subscriptions WHERE id = $1', [made.id]);
      expectSealed(rows[0]?.secret, made.secret, made.id);
      const refused = await withEnv('TOLLGATE_MEMBER_KEY_SECRET', OTHER_SECRET, () =>
        runCli('webhooks', 'add', 'https://93.184.216.34/other', '--event', 'approval.pending', '--database', schema.url),
      );
      expect([refused.code, refused.stderr]).toEqual([2, expect.stringContaining('MEMBER_KEY_SECRET_MISMATCH')]);
      expect((await pool.query('SELECT id FROM webhook_subscriptions')).rows).toEqual([{ id: made.id }]);
    } finally {
      await pool.end();
      await schema.drop();
    }
  });
});
