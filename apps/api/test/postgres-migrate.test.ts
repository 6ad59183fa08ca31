// tollgate migrate and the schema a node starts on (docs/deploy.md, "Migrations"): migrate applies both numbered
// sequences once (again: nothing; twice at once: each step once), and serve refuses a schema that is missing,
// older or newer than it knows, naming the steps, before it serves or writes anything.
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freshSchema, POSTGRES_UNREACHABLE, type TestSchema } from '../../../packages/store/test/postgres-fixture.ts';
import { POSTGRES_STATE_MIGRATIONS } from '../src/server/state/postgres-migrations.ts';
import { runCli } from './cli-harness.ts';

const SKIPPED = POSTGRES_UNREACHABLE ? ` (skipped: ${POSTGRES_UNREACHABLE})` : '';
const schemas: TestSchema[] = [];
async function schema(): Promise<TestSchema> {
  const s = await freshSchema('migrate');
  schemas.push(s);
  return s;
}
async function query(url: string, sql: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

describe.skipIf(POSTGRES_UNREACHABLE !== undefined)(`tollgate migrate and the schema a node starts on${SKIPPED}`, () => {
  afterAll(async () => {
    for (const s of schemas) await s.drop();
  });

  it('applies both sequences once, reports them, and changes nothing when run again or twice at once', async () => {
    const s = await schema();
    const [a, b] = await Promise.all([runCli('migrate', '--database', s.url, '--json'), runCli('migrate', '--database', s.url, '--json')]);
    expect([a.code, b.code], a.stderr + b.stderr).toEqual([0, 0]);
    const known = POSTGRES_STATE_MIGRATIONS.length;
    for (const run of [a, b]) expect(JSON.parse(run.stdout).after.state).toEqual({ current: known, known });
    expect(await query(s.url, "SELECT count(*)::int AS n FROM schema_migrations WHERE sequence = 'state'")).toEqual([{ n: known }]);
    const again = await runCli('migrate', '--database', s.url);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/is current \(state \d+ of \d+, documents \d+ of \d+\)/);
  });

  it('refuses to serve on a schema missing, older or newer than it knows, with the code and the steps', async () => {
    const s = await schema();
    const missing = await runCli('serve', '--database', s.url, '--port', '0');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/SCHEMA_MISSING.*tollgate migrate/);

    expect((await runCli('migrate', '--database', s.url)).code).toBe(0);
    const last = POSTGRES_STATE_MIGRATIONS.length;
    await query(s.url, `DELETE FROM schema_migrations WHERE sequence = 'state' AND version = ${last}`);
    const older = await runCli('serve', '--database', s.url, '--port', '0');
    expect(older.code).toBe(2);
    expect(older.stderr).toContain('SCHEMA_OUTDATED');
    expect(older.stderr).toContain(`state ${last - 1} of ${last}`);

    await query(s.url, `INSERT INTO schema_migrations (sequence, version) VALUES ('state', ${last}), ('state', ${last + 1})`);
    const newer = await runCli('serve', '--database', s.url, '--port', '0');
    expect(newer.code).toBe(2);
    expect(newer.stderr).toContain('SCHEMA_NEWER');
    expect(newer.stderr).toContain(`state ${last + 1} of ${last}`);
    const migrateNewer = await runCli('migrate', '--database', s.url);
    expect(migrateNewer.code).toBe(1);
    expect(migrateNewer.stderr).toContain('SCHEMA_NEWER');
    // Nothing was registered or seeded by the refused starts.
    expect(await query(s.url, 'SELECT count(*)::int AS n FROM gateways')).toEqual([{ n: 0 }]);
    expect(await query(s.url, 'SELECT count(*)::int AS n FROM members')).toEqual([{ n: 0 }]);
  });

  it('refuses a URL that is not postgres:// and a database that does not answer, one line each', async () => {
    const usage = await runCli('migrate', '--database', 'mysql://x');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('postgres://');
    const closed = await runCli('migrate', '--database', 'postgres://postgres@127.0.0.1:1/test');
    expect(closed.code).toBe(2);
    expect(closed.stderr).toContain('DATABASE_UNREACHABLE');
    expect(closed.stderr.trim().split('\n')).toHaveLength(1);
  });
});
