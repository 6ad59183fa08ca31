// A server in this process on a fresh PostgreSQL schema (migrated as `tollgate migrate` does), with the demo
// seeded: the API tests that must show a behaviour on the shared database use it beside server-harness.ts, whose
// startServer serves every route suite here when TOLLGATE_TEST_STATE=postgres (startPostgresTestServer, on a
// database of its own).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { freshSchema, POSTGRES_UNREACHABLE, type TestSchema } from '../../../packages/store/test/postgres-fixture.ts';
import type { AppContext } from '../src/server/context.ts';
import { openPostgresContext } from '../src/server/postgres/postgres-context.ts';
import type { CustodialKeys } from '../src/server/state/members/custodial-keys.ts';
import { testCustodialKeys } from './custodial-test-keys.ts';
import { databaseUrl, dropDatabase, migrate, onServer } from './postgres-databases.ts';
import { type ServerOptions, serveContext, type TestServer } from './server-harness.ts';

/** Creates a schema of its own and migrates it; `drop` removes it. */
export async function migratedSchema(label: string): Promise<TestSchema> {
  const schema = await freshSchema(label);
  await migrate(schema.url);
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
    identity?: ServerOptions['identity'];
    directGate?: ServerOptions['directGate'];
    afterStop?: () => unknown;
    /** The member key secret the node holds; the tests' own unless given. */
    custodial?: CustodialKeys;
  } = {},
): Promise<TestServer<AppContext>> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'tollgate-pg-'));
  const ctx = await openPostgresContext(url, {
    dataDir,
    custodial: options.custodial ?? testCustodialKeys(),
    ...(options.node ? { node: options.node } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  return serveContext(ctx, {
    ...(options.ruleTimeoutMs !== undefined ? { ruleTimeoutMs: options.ruleTimeoutMs } : {}),
    ...(options.identity ? { identity: options.identity } : {}),
    ...(options.directGate !== undefined ? { directGate: options.directGate } : {}),
    afterStop: async () => {
      if (options.dataDir === undefined) rmSync(dataDir, { recursive: true, force: true });
      await options.afterStop?.();
    },
  });
}

// Each route suite's server gets a database of its own, copied from one migrated once for the run
// (postgres-route-global.ts): schemas of one database would share its NOTIFY channels, and a server would hear
// the document and approval notices of the servers other test files run at the same time.

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated database every route suite's database is copied from (postgres-route-global.ts). */
    routeTemplate?: string;
  }
}

/** A database on the test server: `url` reaches it; `drop` removes it, closing what is still connected. */
export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/**
 * A migrated database of its own: a copy of the run's template (CREATE DATABASE ... TEMPLATE, a file copy that takes
 * about as long as migrating a schema), or, outside the `postgres` project, one migrated here.
 */
export async function routeDatabase(): Promise<TestDatabase> {
  const template = inject('routeTemplate');
  const name = `${template ?? 'tg_route'}_${randomBytes(5).toString('hex')}`;
  await onServer(`CREATE DATABASE ${name}${template === undefined ? '' : ` TEMPLATE ${template}`}`);
  const url = withAsyncCommit(databaseUrl(name));
  const database = { name, url, drop: () => dropDatabase(name) };
  if (template === undefined) {
    try {
      await migrate(url);
    } catch (err) {
      await database.drop();
      throw err;
    }
  }
  return database;
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

/** The database of each data folder served: a server started on a folder serves the workspace already there. */
const folders = new Map<string, { database: TestDatabase; servers: number; ours: boolean }>();

/**
 * A database made before it is asked for: the first of a test file is made while the file loads
 * (postgres-route-setup.ts calls prepareDatabase), and once a file has started two servers, the next is made while
 * the last one's tests run.
 */
let spare: Promise<TestDatabase> | undefined;
let taken = 0;
/** Drops begun when a server stopped, awaited once the file is done (finishRouteDatabases). */
const dropping: Promise<void>[] = [];

export function prepareDatabase(): void {
  if (POSTGRES_UNREACHABLE !== undefined || spare !== undefined) return;
  spare = routeDatabase();
  // A failure is the next startServer's to report.
  spare.catch(() => {});
}

function takeDatabase(): Promise<TestDatabase> {
  const database = spare ?? routeDatabase();
  spare = undefined;
  if (++taken >= 2) prepareDatabase();
  return database;
}

/**
 * startServer's PostgreSQL side (TOLLGATE_TEST_STATE=postgres): a fresh migrated database and a folder for its demo
 * keys, both removed when the last server on them stops; or, for a data folder the test names, that folder's
 * database, kept for a later server on the folder until the file is done.
 */
export async function startPostgresTestServer(options: ServerOptions): Promise<TestServer<AppContext>> {
  if (POSTGRES_UNREACHABLE !== undefined) {
    throw new Error(`TOLLGATE_TEST_STATE=postgres serves on PostgreSQL, but ${POSTGRES_UNREACHABLE}`);
  }
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'tollgate-pg-'));
  let folder = folders.get(dataDir);
  if (folder === undefined) {
    folder = { database: await takeDatabase(), servers: 0, ours: options.dataDir === undefined };
    folders.set(dataDir, folder);
  }
  const served = folder;
  served.servers++;
  const release = () => {
    served.servers--;
    if (!served.ours || served.servers > 0) return;
    folders.delete(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
    // Nothing reads the database again: the next test need not wait for it to go.
    dropping.push(served.database.drop());
  };
  try {
    return await startPostgresServer(served.database.url, {
      dataDir,
      ...(options.now ? { now: options.now } : {}),
      ...(options.ruleTimeoutMs !== undefined ? { ruleTimeoutMs: options.ruleTimeoutMs } : {}),
      ...(options.identity ? { identity: options.identity } : {}),
      ...(options.directGate !== undefined ? { directGate: options.directGate } : {}),
      afterStop: release,
    });
  } catch (err) {
    release();
    throw err;
  }
}

/**
 * Once a test file is done (postgres-route-setup.ts): drops the databases of the data folders it named, the spare no
 * server took and those still being dropped.
 */
export async function finishRouteDatabases(): Promise<void> {
  taken = 0;
  for (const [dataDir, folder] of folders) {
    if (folder.ours) continue;
    folders.delete(dataDir);
    dropping.push(folder.database.drop());
  }
  if (spare !== undefined) {
    dropping.push(
      spare.then(
        (database) => database.drop(),
        () => {},
      ),
    );
    spare = undefined;
  }
  await Promise.all(dropping.splice(0));
}
