// tollgate import and export: a folder workspace moves into a migrated PostgreSQL database and back with every
// document's history identical (rejected versions, a revert, hand edits included), and a node serving the
// database answers an agent with a key made before the import.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DocumentStore, FolderDocumentStore, PostgresDocumentStore } from '@tollgate/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshSchema, POSTGRES_UNREACHABLE, type TestSchema } from '../../../packages/store/test/postgres-fixture.ts';
import { seedDemo } from '../src/server/demo.ts';
import { openContext } from '../src/server/sqlite-context.ts';
import { openDatabase } from '../src/server/state/db.ts';
import { runCli } from './cli-harness.ts';
import { REPO_ROOT } from './server-harness.ts';

const POLICY = 'policies/refunds.policy.json';
const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-import-'));
  dirs.push(dir);
  return dir;
}
const children: ChildProcess[] = [];

/** Everything a reader can ask of each document's history. */
async function histories(store: DocumentStore) {
  const out: Record<string, unknown> = {};
  for (const id of await store.list()) {
    const history = await store.history(id);
    const texts = await Promise.all(history.map(async (v) => (await store.getVersion(id, v.sequence))?.text));
    out[id] = { history, texts, running: (await store.get(id))?.sequence, revertTarget: await store.revertTarget(id) };
  }
  return out;
}

async function folderHistories(dataDir: string) {
  const store = await FolderDocumentStore.open(join(dataDir, 'documents'), { watch: false });
  try {
    return await histories(store);
  } finally {
    await store.close();
  }
}

/** `tollgate serve --database URL` as a child process; resolves once it listens. */
function serveDatabase(url: string): Promise<string> {
  const child = spawn(
    process.execPath,
    [join(REPO_ROOT, 'apps/api/bin/tollgate.cjs'), 'serve', '--database', url, '--data', tempDir(), '--port', '0'],
    { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TOLLGATE_DATABASE_URL: '' } },
  );
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the server did not start: ${out}`)), 30_000);
    const read = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /serving the console and API at (http:\/\/[^/\s]+)\//.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1] as string);
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code}: ${out}`));
    });
  });
}

describe.skipIf(POSTGRES_UNREACHABLE !== undefined)('tollgate import and export', () => {
  let schema: TestSchema;
  let source: string;
  let agentKey: string;
  let folderBefore: Record<string, unknown>;

  beforeAll(async () => {
    schema = await freshSchema('cliimport');
    source = tempDir();
    const ctx = await openContext(source, { watch: false });
    await seedDemo(ctx);
    const text = (await ctx.store.get(POLICY))?.text as string;
    const person = { kind: 'person', label: 'olivia' } as const;
    // Version 2 runs, 3 is rejected, a revert runs 1 again, a hand edit is version 4 and a broken one 5 (rejected).
    await ctx.store.save({ id: POLICY, text: `${text} `, author: person, reason: 'trailing space', activate: false });
    await ctx.store.activate(POLICY, 2);
    await ctx.store.save({ id: POLICY, text: '{', author: person, reason: 'broken', rejected: ['not JSON'] });
    await ctx.store.revert(POLICY);
    writeFileSync(join(source, 'documents', POLICY), `${text}\n`);
    await ctx.store.rescan();
    writeFileSync(join(source, 'documents', POLICY), '{ broken by hand');
    await ctx.store.rescan();
    await ctx.close();
    const made = await runCli('keys', 'create', '--data', source, '--agent', 'support-bot', '--json');
    expect(made.code, made.stderr).toBe(0);
    agentKey = JSON.parse(made.stdout).key;
    // A revoked key, a rotated one and a removed member move as they are: none comes back to life by moving.
    const spare = JSON.parse(
      (await runCli('keys', 'create', '--data', source, '--agent', 'refunds-bot', '--expires-in', '30d', '--json')).stdout,
    );
    const [listed] = JSON.parse((await runCli('keys', 'list', '--data', source, '--agent', 'refunds-bot', '--json')).stdout).filter(
      (k: { hint: string }) => k.hint === spare.key.slice(-4),
    );
    expect((await runCli('keys', 'rotate', listed.id, '--data', source, '--overlap', '1h')).code).toBe(0);
    expect((await runCli('keys', 'revoke', listed.rotated_to ?? listed.id, '--data', source)).code).toBe(0);
    expect((await runCli('members', 'remove', 'vic', '--data', source)).code).toBe(0);
    folderBefore = await folderHistories(source);
  }, 30_000);

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await schema?.drop();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('the source history holds rejected versions, a revert and hand edits', () => {
    const policy = folderBefore[POLICY] as { history: { author: { kind: string }; rejected: boolean; running: boolean }[] };
    expect(policy.history.map((v) => [v.author.kind, v.rejected, v.running])).toEqual([
      ['system', false, false],
      ['person', false, false],
      ['person', true, false],
      ['external', false, true],
      ['external', true, false],
    ]);
  });

  it('imports every document with its whole history and the state, then exports it back identical', async () => {
    expect((await runCli('migrate', '--database', schema.url)).code).toBe(0);
    const run = await runCli('import', '--data', source, '--database', schema.url, '--json');
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ documents: 8, versions: 12, members: 5, api_keys: 10, bindings_adopted: true });
    expect(report.tool_authorizations).toBeGreaterThan(0);
    expect(report.archive).toBe(join(source, 'tollgate.db'));

    const database = await PostgresDocumentStore.open({ connectionString: schema.url });
    try {
      expect(await histories(database)).toEqual(folderBefore);
    } finally {
      await database.close();
    }
    const target = join(tempDir(), 'exported');
    const back = await runCli('export', '--database', schema.url, '--data', target);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout).toMatch(/^tollgate export: wrote 8 documents \(12 versions\), 5 members, 10 keys, \d+ tool authorizations/);
    expect(await folderHistories(target)).toEqual(folderBefore);
    // The rule sets' lifecycle moved with the documents (the demo's Support set is active).
    const lifecycleOf = async (dir: string) => {
      const store = await FolderDocumentStore.open(join(dir, 'documents'), { watch: false });
      try {
        return await store.readState('lifecycle');
      } finally {
        await store.close();
      }
    };
    expect(await lifecycleOf(source)).toMatchObject({ 'rulesets/support.ruleset.json': { status: 'active' } });
    expect(await lifecycleOf(target)).toEqual(await lifecycleOf(source));

    const rows = (dir: string) => {
      const db = openDatabase(join(dir, 'tollgate.db'));
      try {
        return [
          'members',
          'api_keys',
          'key_usage',
          'identity_changes',
          'tool_authorizations',
          'tool_authorizations_adopted',
          'upstream_tools',
        ].map((t) => db.prepare(`SELECT * FROM ${t} ORDER BY 1, 2`).all());
      } finally {
        db.close();
      }
    };
    expect(rows(target)).toEqual(rows(source));
    const members = (args: string[]) => runCli('members', 'list', ...args, '--json').then((r) => JSON.parse(r.stdout));
    expect(await members(['--database', schema.url])).toEqual(await members(['--data', source]));
  });

  it('a node serving the database answers the agent with its key made before the import', async () => {
    const url = await serveDatabase(schema.url);
    const res = await fetch(`${url}/v1/agents/support-bot/calls`, {
      method: 'POST',
      headers: { authorization: `Bearer ${agentKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ tool: 'issue_refund', arguments: { amount: '50', order: 'A-1' } }),
    });
    const body = (await res.json()) as Record<string, unknown>;
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ decision: 'allow', rule: 'refund-auto' });
  }, 40_000);
});
