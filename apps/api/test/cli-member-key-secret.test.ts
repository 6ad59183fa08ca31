// tollgate member-key-secret rotate (docs/cli.md, docs/approver-keys.md "The custodial keys at rest"): on a real data
// folder and a real PostgreSQL schema, every custodial key and webhook secret sealed anew in one transaction; a wrong
// current secret, a running node or a bad new secret writes nothing; the folder's own secret file replaced (0600).
import type { ChildProcess } from 'node:child_process';
import { createPublicKey, sign, verify } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { freshSchema, POSTGRES_UNREACHABLE } from '../../../packages/store/test/postgres-fixture.ts';
import { openDatabase } from '../src/server/state/db.ts';
import { CustodialKeys, SecretMismatchError } from '../src/server/state/members/custodial-keys.ts';
import { PostgresNodes } from '../src/server/state/nodes/postgres.ts';
import { registerNode } from '../src/server/state/nodes/sqlite.ts';
import { PostgresStateStore } from '../src/server/state/postgres-state.ts';
import { SqliteStateStore } from '../src/server/state/sqlite-state.ts';
import type { StateStore } from '../src/server/state/state-store.ts';
import { openWebhookSecret, sealWebhookSecret } from '../src/server/state/webhooks/sealed-secret.ts';
import { runCli, withEnv, workspace } from './cli-harness.ts';
import { TEST_MEMBER_KEY_SECRET } from './custodial-test-keys.ts';
import { spawnServer } from './server-harness.ts';

const NEW_SECRET = 'the-new-member-key-secret-after-a-leak-0123';
const OTHER_SECRET = 'another-member-key-secret-of-at-least-32-chars';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A fresh folder holding the new secret's file (with a final newline, as an editor leaves it). */
function folder(): { dir: string; file(name: string, content: string): string } {
  const ws = workspace();
  dirs.push(ws.dir);
  return ws;
}

/** Runs `work` with the environment variable `name` unset, restoring it after. */
async function withoutEnv<T>(name: string, work: () => Promise<T>): Promise<T> {
  const saved = process.env[name];
  delete process.env[name];
  try {
    return await work();
  } finally {
    if (saved !== undefined) process.env[name] = saved;
  }
}

/** A member with a custodial key and a webhook, made by the CLI on `where`; the webhook's secret as shown once. */
async function seeded(...where: string[]): Promise<{ webhook: string; secret: string }> {
  const made = await runCli('keys', 'create', '--member', 'alice', '--role', 'approver', ...where);
  expect([made.code, made.stderr]).toEqual([0, '']);
  const hook = await runCli('webhooks', 'add', 'https://93.184.216.34/hook', '--event', 'approval.pending', ...where, '--json');
  expect([hook.code, hook.stderr]).toEqual([0, '']);
  const { id, secret } = JSON.parse(hook.stdout);
  return { webhook: id, secret };
}

/** What `state`, opened with `keys`, holds: alice's key signs what her public key verifies; the webhook opens to `secret`. */
async function expectOpensWith(state: StateStore, keys: CustodialKeys, webhook: string, secret: string): Promise<void> {
  const alice = await state.findMember('alice');
  const content = Buffer.from('an approval alice signs');
  const signature = sign(null, content, keys.open(alice?.private_key as string));
  expect(verify(null, content, createPublicKey(alice?.public_key as string), signature)).toBe(true);
  const row = await state.webhooks.find(webhook);
  expect(openWebhookSecret(row?.secret as string, keys, webhook)).toBe(secret);
}

/** Every stored key and webhook secret of a data folder, as stored. */
function storedRows(dir: string): unknown[] {
  const db = openDatabase(join(dir, 'tollgate.db'));
  try {
    return [
      db.prepare('SELECT id, private_key FROM members ORDER BY id').all(),
      db.prepare('SELECT id, secret FROM webhook_subscriptions ORDER BY id').all(),
    ];
  } finally {
    db.close();
  }
}

function stopped(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

describe('tollgate member-key-secret rotate on a data folder', () => {
  it('seals every key and webhook secret anew: a server with the new secret starts, one with the old is refused', async () => {
    const { dir, file } = folder();
    const { webhook, secret } = await seeded('--data', dir);
    const next = file('new.secret', `${NEW_SECRET}\n`);
    const run = await runCli('member-key-secret', 'rotate', '--new-secret-file', next, '--data', dir);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toContain('1 custodial keys, 1 webhook secrets');
    // The secret came from the environment: the operator is told to give every node the new one; neither is printed.
    expect(run.stdout).toContain('came from TOLLGATE_MEMBER_KEY_SECRET: give every node the new secret');
    expect(run.stdout).not.toContain(NEW_SECRET);
    expect(run.stdout).not.toContain(TEST_MEMBER_KEY_SECRET);

    await expect(spawnServer(dir, [], { demo: false })).rejects.toThrow(/MEMBER_KEY_SECRET_MISMATCH/);
    const server = await spawnServer(dir, [], { demo: false, env: { TOLLGATE_MEMBER_KEY_SECRET: NEW_SECRET } });
    await stopped(server.child);

    const keys = new CustodialKeys(NEW_SECRET);
    const state = new SqliteStateStore(openDatabase(join(dir, 'tollgate.db')), keys);
    try {
      await expectOpensWith(state, keys, webhook, secret);
    } finally {
      await state.close();
    }
  });

  it('writes nothing when the current secret does not open every row, the webhook secret as much as the keys', async () => {
    const { dir, file } = folder();
    const { webhook, secret } = await seeded('--data', dir);
    const next = file('new.secret', NEW_SECRET);
    const before = storedRows(dir);
    const wrong = await withEnv('TOLLGATE_MEMBER_KEY_SECRET', OTHER_SECRET, () =>
      runCli('member-key-secret', 'rotate', '--new-secret-file', next, '--data', dir),
    );
    expect([wrong.code, wrong.stderr]).toEqual([2, expect.stringContaining('MEMBER_KEY_SECRET_MISMATCH')]);
    expect(wrong.stderr).toContain('nothing was written');
    expect(storedRows(dir)).toEqual(before);

    // The members' keys open, but the webhook's secret was sealed with another: still nothing is written.
    const db = openDatabase(join(dir, 'tollgate.db'));
    db.prepare('UPDATE webhook_subscriptions SET secret = ? WHERE id = ?').run(
      sealWebhookSecret(secret, new CustodialKeys(OTHER_SECRET), webhook),
      webhook,
    );
    db.close();
    const mixed = storedRows(dir);
    const half = await runCli('member-key-secret', 'rotate', '--new-secret-file', next, '--data', dir);
    expect([half.code, half.stderr]).toEqual([
      2,
      expect.stringContaining(`MEMBER_KEY_SECRET_MISMATCH: the member key secret does not open webhook ${webhook}`),
    ]);
    expect(storedRows(dir)).toEqual(mixed);
  });

  it('refuses a short, unreadable or unchanged new secret, and --force, before anything is written', async () => {
    const { dir, file } = folder();
    await seeded('--data', dir);
    const before = storedRows(dir);
    const short = await runCli('member-key-secret', 'rotate', '--new-secret-file', file('short', `${'x'.repeat(31)}\n`), '--data', dir);
    expect([short.code, short.stderr]).toEqual([2, expect.stringContaining('MEMBER_KEY_SECRET_UNREADABLE')]);
    expect(short.stderr).toContain('31 characters');
    const missing = await runCli('member-key-secret', 'rotate', '--new-secret-file', join(dir, 'none'), '--data', dir);
    expect([missing.code, missing.stderr]).toEqual([2, expect.stringContaining('MEMBER_KEY_SECRET_UNREADABLE')]);
    const same = await runCli(
      'member-key-secret',
      'rotate',
      '--new-secret-file',
      file('same', `${TEST_MEMBER_KEY_SECRET}\n`),
      '--data',
      dir,
    );
    expect([same.code, same.stderr]).toEqual([1, expect.stringContaining('MEMBER_KEY_SECRET_UNCHANGED')]);
    const forced = await runCli('member-key-secret', 'rotate', '--new-secret-file', file('n', NEW_SECRET), '--data', dir, '--force');
    expect([forced.code, forced.stderr.split('\n')[0]]).toEqual([2, 'tollgate member-key-secret rotate: --force is for --database only']);
    expect(storedRows(dir)).toEqual(before);
  });

  it('refuses while a node runs on the folder, naming it', async () => {
    const { dir, file } = folder();
    await seeded('--data', dir);
    const db = openDatabase(join(dir, 'tollgate.db'));
    const node = await registerNode(db, { version: '0.0.0-test', languageRevision: 4 });
    try {
      const before = storedRows(dir);
      const run = await runCli('member-key-secret', 'rotate', '--new-secret-file', file('n', NEW_SECRET), '--data', dir);
      expect([run.code, run.stderr]).toEqual([1, expect.stringContaining(`NODES_RUNNING: a node is running on this store (${node.id}`)]);
      expect(storedRows(dir)).toEqual(before);
    } finally {
      await node.stop();
      db.close();
    }
    const after = await runCli('member-key-secret', 'rotate', '--new-secret-file', file('n', NEW_SECRET), '--data', dir);
    expect(after.code).toBe(0);
  });

  it('replaces the folder’s own secret file with the new secret, mode 0600, once the rows are sealed', async () => {
    const { dir, file } = folder();
    const next = file('new.secret', `${NEW_SECRET}\n`);
    await withoutEnv('TOLLGATE_MEMBER_KEY_SECRET', async () => {
      const { webhook, secret } = await seeded('--data', dir);
      const own = join(dir, 'member-key.secret');
      const old = readFileSync(own, 'utf8').trim();
      const run = await runCli('member-key-secret', 'rotate', '--new-secret-file', next, '--data', dir, '--json');
      expect([run.code, run.stderr]).toEqual([0, '']);
      expect(JSON.parse(run.stdout)).toEqual({
        keys: 1,
        webhook_secrets: 1,
        current_secret_from: own,
        new_secret_from: next,
        secret_file_replaced: own,
      });
      expect(run.stdout).not.toContain(old);
      expect(readFileSync(own, 'utf8')).toBe(`${NEW_SECRET}\n`);
      expect(statSync(own).mode & 0o777).toBe(0o600);
      expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
      // A command taking the folder's own file now opens everything; the old secret opens nothing.
      const listed = await runCli('webhooks', 'list', '--data', dir);
      expect([listed.code, listed.stderr]).toEqual([0, '']);
      const keys = new CustodialKeys(NEW_SECRET);
      const state = new SqliteStateStore(openDatabase(join(dir, 'tollgate.db')), keys);
      try {
        await expectOpensWith(state, keys, webhook, secret);
      } finally {
        await state.close();
      }
      expect(() => new SqliteStateStore(openDatabase(join(dir, 'tollgate.db')), new CustodialKeys(old))).toThrow(SecretMismatchError);
    });
  });
});

describe.skipIf(POSTGRES_UNREACHABLE !== undefined)('tollgate member-key-secret rotate on PostgreSQL', () => {
  it('refuses while another node is live unless --force, then seals everything anew in one go', async () => {
    const { file } = folder();
    const next = file('new.secret', NEW_SECRET);
    const schema = await freshSchema('cli_secret_rotate');
    const pool = new pg.Pool({ connectionString: schema.url, max: 2 });
    const nodes = new PostgresNodes(pool);
    try {
      expect((await runCli('migrate', '--database', schema.url)).code).toBe(0);
      const { webhook, secret } = await seeded('--database', schema.url);
      const rows = async () => [
        (await pool.query('SELECT id, private_key FROM members ORDER BY id')).rows,
        (await pool.query('SELECT id, secret FROM webhook_subscriptions ORDER BY id')).rows,
      ];
      const before = await rows();
      const node = await nodes.registerNode({ version: '0.0.0-test', languageRevision: 4 });
      const refused = await runCli('member-key-secret', 'rotate', '--new-secret-file', next, '--database', schema.url);
      expect([refused.code, refused.stderr]).toEqual([
        1,
        expect.stringContaining(`NODES_RUNNING: a node is running on this store (${node.id}`),
      ]);
      expect(refused.stderr).toContain('--force');
      const wrong = await withEnv('TOLLGATE_MEMBER_KEY_SECRET', OTHER_SECRET, () =>
        runCli('member-key-secret', 'rotate', '--new-secret-file', next, '--database', schema.url, '--force'),
      );
      expect([wrong.code, wrong.stderr]).toEqual([2, expect.stringContaining('MEMBER_KEY_SECRET_MISMATCH')]);
      expect(await rows()).toEqual(before);

      const run = await runCli('member-key-secret', 'rotate', '--new-secret-file', next, '--database', schema.url, '--force', '--json');
      expect([run.code, run.stderr]).toEqual([0, '']);
      expect(JSON.parse(run.stdout)).toMatchObject({ keys: 1, webhook_secrets: 1, secret_file_replaced: null });
      await node.stop();

      const keys = new CustodialKeys(NEW_SECRET);
      const state = await PostgresStateStore.open(pool, keys);
      try {
        await expectOpensWith(state, keys, webhook, secret);
      } finally {
        await state.close();
      }
      await expect(PostgresStateStore.open(pool, new CustodialKeys(TEST_MEMBER_KEY_SECRET))).rejects.toThrow(SecretMismatchError);
    } finally {
      nodes.close();
      await pool.end();
      await schema.drop();
    }
  });

  it('writes nothing when a row changes between its reading and the write (ROTATION_CONFLICT)', async () => {
    const { file } = folder();
    const next = file('new.secret', NEW_SECRET);
    const schema = await freshSchema('cli_secret_conflict');
    const pool = new pg.Pool({ connectionString: schema.url, max: 2 });
    try {
      expect((await runCli('migrate', '--database', schema.url)).code).toBe(0);
      await seeded('--database', schema.url);
      const current = new CustodialKeys(TEST_MEMBER_KEY_SECRET);
      const [alice] = (await pool.query<{ id: string; private_key: string }>("SELECT id, private_key FROM members WHERE name = 'alice'"))
        .rows;
      // Another writer seals alice's key again (the same key, a new ciphertext) and holds its row until the rotation
      // has read the old text and waits for the tables.
      const writer = await pool.connect();
      await writer.query('BEGIN');
      await writer.query('UPDATE members SET private_key = $1 WHERE id = $2', [
        current.seal(current.open(alice?.private_key as string)),
        alice?.id,
      ]);
      const rotation = runCli('member-key-secret', 'rotate', '--new-secret-file', next, '--database', schema.url);
      for (let waited = 0; ; waited += 20) {
        const { rows } = await pool.query("SELECT 1 FROM pg_locks WHERE NOT granted AND relation = 'members'::regclass");
        if (rows.length > 0) break;
        if (waited > 10_000) throw new Error('the rotation never waited for the tables');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await writer.query('COMMIT');
      writer.release();
      const committed = (await pool.query('SELECT id, private_key FROM members ORDER BY id')).rows;
      const secrets = (await pool.query('SELECT id, secret FROM webhook_subscriptions ORDER BY id')).rows;
      const run = await rotation;
      expect([run.code, run.stderr]).toEqual([1, expect.stringContaining(`ROTATION_CONFLICT: member ${alice?.id} changed`)]);
      expect((await pool.query('SELECT id, private_key FROM members ORDER BY id')).rows).toEqual(committed);
      expect((await pool.query('SELECT id, secret FROM webhook_subscriptions ORDER BY id')).rows).toEqual(secrets);
    } finally {
      await pool.end();
      await schema.drop();
    }
  });
});
