// A server in this process on a fresh PostgreSQL schema (migrated as `tollgate migrate` does), with the demo
// seeded: the API tests that must show a behaviour on the shared database use it beside server-harness.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freshSchema, type TestSchema } from '../../../packages/store/test/postgres-fixture.ts';
import type { AppContext } from '../src/server/context.ts';
import { openPostgresContext } from '../src/server/postgres/postgres-context.ts';
import { migrateSchema } from '../src/server/postgres/schema.ts';
import { serveContext, type TestServer } from './server-harness.ts';

/** Creates a schema of its own and migrates it; `drop` removes it. */
export async function migratedSchema(label: string): Promise<TestSchema> {
  const schema = await freshSchema(label);
  const pool = new pg.Pool({ connectionString: schema.url, max: 2 });
  try {
    await migrateSchema(pool);
  } finally {
    await pool.end();
  }
  return schema;
}

/**
 * Serves a workspace on `url` (a migrated schema's, or any URL reaching it) in this process, the demo seeded
 * on first use.
 *
 * @example
 * const schema = await migratedSchema('gate');
 * const server = await startPostgresServer(schema.url);
 */
export async function startPostgresServer(
  url: string,
  options: { node?: { languageRevision: 1 | 2 | 3; heartbeatMs?: number } } = {},
): Promise<TestServer<AppContext>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-pg-'));
  const ctx = await openPostgresContext(url, { dataDir, ...(options.node ? { node: options.node } : {}) });
  return serveContext(ctx, { afterStop: () => rmSync(dataDir, { recursive: true, force: true }) });
}
