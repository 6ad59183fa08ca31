// A server in this process on a fresh PostgreSQL schema (migrated as `tollgate migrate` does), with the demo
// seeded: the API tests that must show a behaviour on the shared database use it beside server-harness.ts, whose
// startServer serves every route suite here when TOLLGATE_TEST_STATE=postgres (startPostgresTestServer).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freshSchema, POSTGRES_UNREACHABLE, type TestSchema } from '../../../packages/store/test/postgres-fixture.ts';
import type { AppContext } from '../src/server/context.ts';
import { openPostgresContext } from '../src/server/postgres/postgres-context.ts';
import { migrateSchema } from '../src/server/postgres/schema.ts';
import { type ServerOptions, serveContext, type TestServer } from './server-harness.ts';

/**
 * Creates a schema of its own and migrates it; `drop` removes it. `asyncCommit` makes its URL commit without waiting
 * for the disk (below).
 */
export async function migratedSchema(label: string, options: { asyncCommit?: boolean } = {}): Promise<TestSchema> {
  const fresh = await freshSchema(label);
  const schema = options.asyncCommit ? { ...fresh, url: withAsyncCommit(fresh.url) } : fresh;
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
 * on first use; its demo keys go to `dataDir` (a folder of its own, removed on stop, unless given).
 *
 * @example
 * const schema = await migratedSchema('gate');
 * const server = await startPostgresServer(schema.url);
 */
export async function startPostgresServer(
  url: string,
  options: {
    node?: { languageRevision: 1 | 2 | 3; heartbeatMs?: number };
    dataDir?: string;
    now?: () => Date;
    ruleTimeoutMs?: number;
    afterStop?: () => unknown;
  } = {},
): Promise<TestServer<AppContext>> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'tollgate-pg-'));
  const ctx = await openPostgresContext(url, {
    dataDir,
    ...(options.node ? { node: options.node } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  return serveContext(ctx, {
    ...(options.ruleTimeoutMs !== undefined ? { ruleTimeoutMs: options.ruleTimeoutMs } : {}),
    afterStop: async () => {
      if (options.dataDir === undefined) rmSync(dataDir, { recursive: true, force: true });
      await options.afterStop?.();
    },
  });
}

/**
 * The URL with synchronous_commit off for every connection made from it: a commit answers before the disk has it,
 * so a route suite's many small transactions (the demo's seed, every gate call) do not each wait on it. Only a crash
 * of the database server could lose one, which no route suite makes; what each connection reads is the same.
 */
function withAsyncCommit(url: string): string {
  const u = new URL(url);
  u.searchParams.set('options', `${u.searchParams.get('options') ?? ''} -c synchronous_commit=off`.trim());
  return u.toString();
}

/** The schema of each data folder served: a server started on a folder serves the workspace already there. */
const folders = new Map<string, { schema: TestSchema; servers: number; ours: boolean }>();

/**
 * A schema migrated before it is asked for: migrating one takes most of a server's start on PostgreSQL, so the
 * first is made while the test file loads (server-harness.ts calls prepareSchema on import), and once a file has
 * started two servers, the next is made while the last one's tests run.
 */
let spare: Promise<TestSchema> | undefined;
let taken = 0;
/** Drops begun when a server stopped, awaited once the file is done (finishRouteSchemas). */
const dropping: Promise<void>[] = [];

export function prepareSchema(): void {
  if (POSTGRES_UNREACHABLE !== undefined || spare !== undefined) return;
  spare = migratedSchema('route', { asyncCommit: true });
  // A failure is the next startServer's to report.
  spare.catch(() => {});
}

async function takeSchema(): Promise<TestSchema> {
  const schema = spare ?? migratedSchema('route', { asyncCommit: true });
  spare = undefined;
  if (++taken >= 2) prepareSchema();
  return schema;
}

/**
 * startServer's PostgreSQL side (TOLLGATE_TEST_STATE=postgres): a fresh migrated schema and a folder for its demo
 * keys, both removed when the last server on them stops; or, for a data folder the test names, that folder's
 * schema, kept for a later server on the folder until the file is done.
 */
export async function startPostgresTestServer(options: ServerOptions): Promise<TestServer<AppContext>> {
  if (POSTGRES_UNREACHABLE !== undefined) {
    throw new Error(`TOLLGATE_TEST_STATE=postgres serves on PostgreSQL, but ${POSTGRES_UNREACHABLE}`);
  }
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'tollgate-pg-'));
  let folder = folders.get(dataDir);
  if (folder === undefined) {
    folder = { schema: await takeSchema(), servers: 0, ours: options.dataDir === undefined };
    folders.set(dataDir, folder);
  }
  const served = folder;
  served.servers++;
  const release = () => {
    served.servers--;
    if (!served.ours || served.servers > 0) return;
    folders.delete(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
    // Nothing reads the schema again: the next test need not wait for it to go.
    dropping.push(served.schema.drop());
  };
  try {
    return await startPostgresServer(served.schema.url, {
      dataDir,
      ...(options.now ? { now: options.now } : {}),
      ...(options.ruleTimeoutMs !== undefined ? { ruleTimeoutMs: options.ruleTimeoutMs } : {}),
      afterStop: release,
    });
  } catch (err) {
    release();
    throw err;
  }
}

/**
 * Once a test file is done (server-harness.ts registers it): drops the schemas of the data folders it named, the
 * spare no server took and those still being dropped.
 */
export async function finishRouteSchemas(): Promise<void> {
  for (const [dataDir, folder] of folders) {
    if (folder.ours) continue;
    folders.delete(dataDir);
    dropping.push(folder.schema.drop());
  }
  if (spare !== undefined) {
    dropping.push(
      spare.then(
        (schema) => schema.drop(),
        () => {},
      ),
    );
    spare = undefined;
  }
  await Promise.all(dropping.splice(0));
}
