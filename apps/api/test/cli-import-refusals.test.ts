// tollgate import and export refuse, each with one line naming its code and the documented exit code, writing
// nothing: a database that holds a workspace, a schema not migrated, a folder that holds documents, a database
// that does not answer, a document that cannot be moved. And keys create / members list work on the database.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshSchema, POSTGRES_UNREACHABLE, type TestSchema } from '../../../packages/store/test/postgres-fixture.ts';
import { seedDemo } from '../src/server/demo.ts';
import { openContext } from '../src/server/sqlite-context.ts';
import { PostgresStateStore } from '../src/server/state/postgres-state.ts';
import { type CliRun, runCli } from './cli-harness.ts';
import { testCustodialKeys } from './custodial-test-keys.ts';

const dirs: string[] = [];
const schemas: TestSchema[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-import-refusals-'));
  dirs.push(dir);
  return dir;
}
async function migrated(): Promise<TestSchema> {
  const schema = await freshSchema('cliimportno');
  schemas.push(schema);
  expect((await runCli('migrate', '--database', schema.url)).code).toBe(0);
  return schema;
}

/** Rows of every table a transfer writes, to show a refusal wrote none. */
async function counts(url: string): Promise<Record<string, number>> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    const out: Record<string, number> = {};
    for (const t of ['documents', 'document_versions', 'document_state', 'members', 'api_keys', 'tool_authorizations', 'upstream_tools']) {
      out[t] = (await pool.query(`SELECT count(*)::int AS n FROM ${t}`)).rows[0].n;
    }
    return out;
  } finally {
    await pool.end();
  }
}

function listing(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).sort();
}

/** One line on stderr naming the code, nothing on stdout, and the exit code. */
function refused(run: CliRun, code: string, exit: number): void {
  expect(run.stdout).toBe('');
  expect(run.stderr).toMatch(new RegExp(`^tollgate \\w+: ${code}: [^\\n]+\\n$`));
  expect(run.code).toBe(exit);
}

/** A port nothing listens on: one the system gave out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe.skipIf(POSTGRES_UNREACHABLE !== undefined)('tollgate import and export refusals', () => {
  let source: string;

  beforeAll(async () => {
    source = tempDir();
    const ctx = await openContext(source, { watch: false });
    await seedDemo(ctx);
    await ctx.close();
  }, 30_000);

  afterAll(async () => {
    for (const s of schemas.splice(0)) await s.drop();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('refuses a database that already holds a workspace (exit 1), writing nothing', async () => {
    const schema = await migrated();
    expect((await runCli('import', '--data', source, '--database', schema.url)).code).toBe(0);
    const before = await counts(schema.url);
    refused(await runCli('import', '--data', source, '--database', schema.url), 'DATABASE_NOT_EMPTY', 1);
    expect(await counts(schema.url)).toEqual(before);
    // A member alone (made with keys create) is a workspace too.
    const other = await migrated();
    expect((await runCli('keys', 'create', '--database', other.url, '--member', 'ana', '--role', 'owner')).code).toBe(0);
    const one = await counts(other.url);
    refused(await runCli('import', '--data', source, '--database', other.url), 'DATABASE_NOT_EMPTY', 1);
    expect(await counts(other.url)).toEqual(one);
  });

  it('refuses a schema that is not migrated with the codes serve uses (exit 2), creating no table', async () => {
    const schema = await freshSchema('cliimportbare');
    schemas.push(schema);
    refused(await runCli('import', '--data', source, '--database', schema.url), 'SCHEMA_MISSING', 2);
    refused(await runCli('export', '--data', join(tempDir(), 'out'), '--database', schema.url), 'SCHEMA_MISSING', 2);
    const pool = new pg.Pool({ connectionString: schema.url, max: 1 });
    try {
      const tables = await pool.query('SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = $1', [schema.name]);
      expect(tables.rows[0].n).toBe(0);
    } finally {
      await pool.end();
    }
  });

  it('refuses to export into a folder that holds documents (exit 1), writing nothing', async () => {
    const schema = await migrated();
    expect((await runCli('import', '--data', source, '--database', schema.url)).code).toBe(0);
    const before = listing(source);
    refused(await runCli('export', '--data', source, '--database', schema.url), 'DATA_NOT_EMPTY', 1);
    expect(listing(source)).toEqual(before);
    // A folder with a working copy alone holds documents too.
    const loose = tempDir();
    const documents = join(loose, 'documents');
    mkdirSync(documents);
    writeFileSync(join(documents, 'settings.yaml'), 'approval_ttl_seconds: 60\n');
    refused(await runCli('export', '--data', loose, '--database', schema.url), 'DATA_NOT_EMPTY', 1);
    expect(listing(loose)).toEqual(['documents', 'documents/settings.yaml']);
  });

  it('refuses to export a lifecycle that does not read as JSON (exit 2), naming where, writing no lifecycle', async () => {
    const schema = await migrated();
    expect((await runCli('import', '--data', source, '--database', schema.url)).code).toBe(0);
    const pool = new pg.Pool({ connectionString: schema.url, max: 1 });
    try {
      for (const text of ['{"a": [', '{"x": 1, "x": 2}']) {
        await pool.query(
          "INSERT INTO document_state (key, value) VALUES ('lifecycle', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
          [text],
        );
        const target = join(tempDir(), 'out');
        const run = await runCli('export', '--data', target, '--database', schema.url);
        refused(run, 'STORE_DAMAGED', 2);
        expect(run.stderr).toContain("the rule sets' lifecycle in the database does not read at line 1");
        const written = existsSync(target) ? listing(target) : [];
        expect(written.filter((f) => f.endsWith('lifecycle.json'))).toEqual([]);
      }
    } finally {
      await pool.end();
    }
  });

  it('refuses a database that does not answer (exit 2), writing nothing', async () => {
    const url = `postgres://postgres@127.0.0.1:${await closedPort()}/test`;
    const before = listing(source);
    refused(await runCli('import', '--data', source, '--database', url), 'DATABASE_UNREACHABLE', 2);
    expect(listing(source)).toEqual(before);
    const target = join(tempDir(), 'out');
    refused(await runCli('export', '--data', target, '--database', url), 'DATABASE_UNREACHABLE', 2);
    expect(existsSync(target)).toBe(false);
    // A folder that is no data folder is refused before the database is asked.
    refused(await runCli('import', '--data', target, '--database', url), 'DATA_MISSING', 2);
    expect(existsSync(target)).toBe(false);
  });

  it('names a document that cannot be moved and writes nothing to the database (exit 1)', async () => {
    const damaged = tempDir();
    const ctx = await openContext(damaged, { watch: false });
    await seedDemo(ctx);
    await ctx.close();
    const versions = join(damaged, 'documents/.tollgate/documents', encodeURIComponent('settings.yaml'), 'versions');
    writeFileSync(join(versions, '1.json'), '{"garbled": true}');
    const schema = await migrated();
    const before = await counts(schema.url);
    const run = await runCli('import', '--data', damaged, '--database', schema.url);
    refused(run, 'IMPORT_FAILED', 1);
    expect(run.stderr).toContain('settings.yaml could not be moved (damaged: ');
    expect(await counts(schema.url)).toEqual(before);
  });

  it('keys create --database makes a member and an agent key that the database answers; members list reads them', async () => {
    const schema = await migrated();
    const member = await runCli('keys', 'create', '--database', schema.url, '--member', 'nora', '--role', 'approver', '--json');
    expect(member.code, member.stderr).toBe(0);
    const made = JSON.parse(member.stdout);
    const agent = await runCli('keys', 'create', '--database', schema.url, '--agent', 'support-bot', '--grant', 'catalogue');
    expect(agent.stdout).toMatch(/^tg_\S+\n$/);
    const list = await runCli('members', 'list', '--database', schema.url, '--json');
    expect(JSON.parse(list.stdout)).toEqual([{ id: made.id, name: 'nora', role: 'approver', signing: true }]);
    const pool = new pg.Pool({ connectionString: schema.url, max: 2 });
    try {
      const state = await PostgresStateStore.open(pool, testCustodialKeys());
      expect(await state.authenticateKey(made.key, new Date())).toMatchObject({ principal: { kind: 'member', member: { name: 'nora' } } });
      expect(await state.authenticateKey(agent.stdout.trim(), new Date())).toMatchObject({
        principal: { kind: 'agent', agent: 'support-bot', grants: ['catalogue'] },
      });
      await state.close();
    } finally {
      await pool.end();
    }
  });
});
