// tollgate members add|role|remove and keys list|rotate|revoke (docs/cli.md): the operator's commands, judged by
// the rules the API's are (the last owner stays) and recorded as `operator`, on a data folder's SQLite and on a
// PostgreSQL schema; a key revoked or rotated by the CLI is refused by a server's next check of it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { freshSchema, POSTGRES_UNREACHABLE } from '../../../packages/store/test/postgres-fixture.ts';
import { openDatabase } from '../src/server/state/db.ts';
import { PostgresStateStore } from '../src/server/state/postgres-state.ts';
import { SqliteStateStore } from '../src/server/state/sqlite-state.ts';
import type { StateStore } from '../src/server/state/state-store.ts';
import { runCli } from './cli-harness.ts';
import { testCustodialKeys } from './custodial-test-keys.ts';

const dirs: string[] = [];
function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-members-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** What a key is refused as now (or `ok`), as a server checks it on its next turn (it reads the generation once a turn). */
async function standing(state: StateStore, key: string): Promise<string> {
  await new Promise((r) => setImmediate(r));
  const auth = await state.authenticateKey(key, new Date());
  if (!auth) return 'unknown';
  return 'refused' in auth ? auth.refused : 'ok';
}

async function json(...argv: string[]) {
  const run = await runCli(...argv, '--json');
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
}

describe('tollgate members and keys on a data folder', () => {
  it('adds, re-roles and removes members, keeping the last owner', async () => {
    const data = dataDir();
    const owner = await json('members', 'add', 'olga', '--role', 'owner', '--data', data);
    expect(owner).toMatchObject({ name: 'olga', role: 'owner', removed_at: null });
    const last = await runCli('members', 'role', 'olga', '--role', 'admin', '--data', data);
    expect([last.code, last.stderr.trim()]).toEqual([
      1,
      'tollgate members role: LAST_OWNER: olga is the last owner; make another owner first',
    ]);
    const removeLast = await runCli('members', 'remove', 'olga', '--data', data);
    expect(removeLast.code).toBe(1);
    expect(removeLast.stderr).toContain('LAST_OWNER');

    await json('members', 'add', 'ben', '--role', 'developer', '--data', data);
    const again = await runCli('members', 'add', 'ben', '--role', 'viewer', '--data', data);
    expect([again.code, again.stderr]).toEqual([1, expect.stringContaining('MEMBER_EXISTS')]);
    expect(await json('members', 'role', 'ben', '--role', 'owner', '--data', data)).toMatchObject({ role: 'owner' });
    expect(await json('members', 'role', 'olga', '--role', 'viewer', '--data', data)).toMatchObject({ role: 'viewer' });
    const removed = await json('members', 'remove', 'olga', '--data', data);
    expect(removed.removed_at).not.toBeNull();
    const listed = await json('members', 'list', '--data', data);
    expect(listed.map((m: { name: string }) => m.name)).toEqual(['ben']);

    const usage = await runCli('members', 'role', 'ben', '--role', 'wizard', '--data', data);
    expect(usage.code).toBe(2);
    const missing = await runCli('members', 'remove', 'nobody', '--data', data);
    expect([missing.code, missing.stderr]).toEqual([1, expect.stringContaining('NOT_FOUND')]);

    const state = new SqliteStateStore(openDatabase(join(data, 'tollgate.db')), testCustodialKeys());
    try {
      const changes = await state.identity.listChanges(10);
      expect(changes.rows.map((c) => [c.action, c.subject, c.actor])).toEqual([
        ['member.removed', 'olga', 'operator'],
        ['member.role_changed', 'olga', 'operator'],
        ['member.role_changed', 'ben', 'operator'],
        ['member.added', 'ben', 'operator'],
        ['member.added', 'olga', 'operator'],
      ]);
    } finally {
      await state.close();
    }
  });

  it('lists, rotates and revokes keys, each refused on its next check', async () => {
    const data = dataDir();
    const made = await json('keys', 'create', '--data', data, '--member', 'nora', '--role', 'developer', '--name', 'laptop');
    const agent = await json('keys', 'create', '--data', data, '--agent', 'ci-bot', '--expires-in', '30d');
    expect(Date.parse(agent.expires_at) - Date.now()).toBeGreaterThan(29 * 86400_000);
    const keys = await json('keys', 'list', '--data', data);
    expect(keys.map((k: LooseKey) => [k.member_name ?? `agent:${k.agent}`, k.name, k.status, k.hint])).toEqual([
      ['nora', 'laptop', 'active', made.key.slice(-4)],
      ['agent:ci-bot', null, 'active', agent.key.slice(-4)],
    ]);
    const text = (await runCli('keys', 'list', '--data', data)).stdout;
    expect(text).not.toContain(made.key);
    expect(text).toContain('nora (laptop)');
    const id = keys[0].id as string;

    const rotated = await json('keys', 'rotate', id, '--overlap', '1h', '--data', data);
    expect(rotated.previous).toMatchObject({ id, rotated_to: rotated.id });
    const twice = await runCli('keys', 'rotate', id, '--data', data);
    expect([twice.code, twice.stderr]).toEqual([1, expect.stringContaining('KEY_NOT_ACTIVE')]);
    const bad = await runCli('keys', 'rotate', rotated.id, '--overlap', '31d', '--data', data);
    expect(bad.code).toBe(2);

    const state = new SqliteStateStore(openDatabase(join(data, 'tollgate.db')), testCustodialKeys());
    try {
      expect(await standing(state, made.key)).toBe('ok');
      expect(await standing(state, rotated.key)).toBe('ok');
      await json('keys', 'revoke', rotated.id, '--data', data);
      expect(await standing(state, rotated.key)).toBe('KEY_REVOKED');
      await json('keys', 'rotate', (await json('keys', 'list', '--data', data, '--agent', 'ci-bot'))[0].id, '--data', data);
      expect(await standing(state, agent.key)).toBe('KEY_EXPIRED');
      await json('members', 'remove', 'nora', '--data', data);
      expect(await standing(state, made.key)).toBe('MEMBER_REMOVED');
    } finally {
      await state.close();
    }
    const gone = await runCli('keys', 'create', '--data', data, '--member', 'nora');
    expect([gone.code, gone.stderr]).toEqual([1, expect.stringContaining('NOT_FOUND: nora was removed')]);
  });

  it('refuses durations that are not one, writing nothing', async () => {
    const data = dataDir();
    for (const d of ['soon', '0s', '1.5h', '-1d', '367d', '1w', '']) {
      const run = await runCli('keys', 'create', '--data', data, '--agent', 'ci-bot', '--expires-in', d);
      expect(run.code, d).toBe(2);
    }
    expect(await json('keys', 'list', '--data', data)).toEqual([]);
  });
});

type LooseKey = { member_name: string | null; agent: string | null; name: string | null; status: string; hint: string };

describe.skipIf(POSTGRES_UNREACHABLE !== undefined)('tollgate members and keys on PostgreSQL', () => {
  it('revokes on the shared database: a node that cached the key refuses it on its next check', async () => {
    const schema = await freshSchema('cli_keys');
    const pool = new pg.Pool({ connectionString: schema.url, max: 2 });
    try {
      expect((await runCli('migrate', '--database', schema.url)).code).toBe(0);
      const made = await json('keys', 'create', '--database', schema.url, '--member', 'nora', '--role', 'owner');
      const state = await PostgresStateStore.open(pool, testCustodialKeys());
      try {
        expect(await standing(state, made.key)).toBe('ok');
        const [key] = await json('keys', 'list', '--database', schema.url);
        await json('keys', 'revoke', key.id, '--database', schema.url);
        expect(await standing(state, made.key)).toBe('KEY_REVOKED');
        const last = await runCli('members', 'remove', 'nora', '--database', schema.url);
        expect([last.code, last.stderr]).toEqual([1, expect.stringContaining('LAST_OWNER')]);
      } finally {
        await state.close();
      }
    } finally {
      await pool.end();
      await schema.drop();
    }
  });
});
