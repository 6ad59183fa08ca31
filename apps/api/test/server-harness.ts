// A real server for API tests: a fresh workspace seeded with the demo, served on loopback over real HTTP,
// with the demo keys and a fetch helper. `startServer` serves on SQLite beside a data folder, or on PostgreSQL
// when TOLLGATE_TEST_STATE=postgres (postgres-harness.ts), so the route suites run on both state stores; tests
// set up and read state through the API, the StateStore interface or the helpers below, never one database.
// `spawnServer` runs a server as a child process (restart tests).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { createServer as createHttpServer, ServerOptions as HttpServerOptions, RequestListener } from 'node:http';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { expect } from 'vitest';
import { type AppOptions, createApp } from '../src/server/app.ts';
import type { AppContext } from '../src/server/context.ts';
import { type DemoKeys, seedDemo } from '../src/server/demo.ts';
import { withDirectGate } from '../src/server/gate/direct-lane.ts';
import type { Identity } from '../src/server/identity/identity.ts';
import { openContext, type SqliteAppContext } from '../src/server/sqlite-context.ts';
import type { CustodialKeys } from '../src/server/state/members/custodial-keys.ts';
import type { PostgresStateStore } from '../src/server/state/postgres-state.ts';
import type { SqliteStateStore } from '../src/server/state/sqlite-state.ts';
import { TEST_MEMBER_KEY_SECRET } from './custodial-test-keys.ts';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** A response body as tests read it: loosely, every assertion says what it expects. */
// biome-ignore lint/suspicious/noExplicitAny: one alias, so tests can reach into bodies they assert on
export type LooseJson = any;

export interface TestServer<C extends AppContext = AppContext> {
  url: string;
  dataDir: string;
  keys: DemoKeys;
  ctx: C;
  /** The key of a demo member by role (owner, admin, approver, developer, viewer) or of support-bot. */
  key(who: 'owner' | 'admin' | 'approver' | 'developer' | 'viewer' | 'agent'): string;
  /** fetch with a key and a JSON body. */
  call(
    method: string,
    path: string,
    options?: { key?: string; body?: unknown; raw?: string; headers?: Record<string, string> },
  ): Promise<{ status: number; json: LooseJson; text: string }>;
  /** How many requests the app's own listener has served: every one the gate's direct lane did not answer itself. */
  appRequests(): number;
  stop(): Promise<void>;
}

/** What a test reaches of a server over HTTP alone, in process or spawned (`serverAt`). */
export type HttpServer = Pick<TestServer, 'url' | 'keys' | 'key' | 'call'>;

/** A spawned server (or any other on the demo's keys) as tests call it. */
export function serverAt(url: string, keys: DemoKeys): HttpServer {
  return { url, keys, key: (who) => demoKey(keys, who), call: (method, path, o) => httpCall(url, method, path, o) };
}

/** The demo keys a seeding server wrote to its data folder. */
export function readDemoKeys(dataDir: string): DemoKeys {
  return JSON.parse(readFileSync(join(dataDir, 'demo-keys.json'), 'utf8')) as DemoKeys;
}

function demoKey(keys: DemoKeys, who: Parameters<TestServer['key']>[0]): string {
  if (who === 'agent') return (keys.agents[0] as { key: string }).key;
  const m = keys.members.find((x) => x.role === who);
  if (!m) throw new Error(`no demo ${who}`);
  return m.key;
}

/**
 * How long a test's request waits for its whole answer: under vitest's 30 s a test, so a request the server never
 * answers fails naming itself instead of leaving only the test's own timeout.
 */
const ANSWER_WAIT_MS = 25_000;

async function httpCall(url: string, method: string, path: string, o: Parameters<TestServer['call']>[2] = {}) {
  const headers: Record<string, string> = { ...(o.headers ?? {}) };
  if (o.key) headers.authorization = `Bearer ${o.key}`;
  let body: string | undefined = o.raw;
  if (o.body !== undefined) {
    body = JSON.stringify(o.body);
    headers['content-type'] = 'application/json';
  }
  let res: Response;
  let text: string;
  try {
    res = await fetch(url + path, { method, headers, body, signal: AbortSignal.timeout(ANSWER_WAIT_MS) });
    text = await res.text();
  } catch (err) {
    if (err instanceof Error && err.name === 'TimeoutError') {
      throw new Error(`no answer to ${method} ${path.slice(0, 200)} within ${ANSWER_WAIT_MS / 1000} s`);
    }
    throw err;
  }
  let json: LooseJson;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text };
}

/** The key of a demo agent by name (`support-bot`, `refunds-bot`). */
export function agentKey(server: Pick<TestServer, 'keys'>, name: string): string {
  const agent = server.keys.agents.find((a) => a.name === name);
  if (!agent) throw new Error(`no demo agent ${name}`);
  return agent.key;
}

/** A response's JSON once its status is the one expected (the body is the failure's message). */
export async function okJson(res: Promise<{ status: number; json: LooseJson }>, status = 200): Promise<LooseJson> {
  const r = await res;
  expect(r.status, JSON.stringify(r.json)).toBe(status);
  return r.json;
}

/**
 * The precondition of a write to a document as a client sends it: If-Match with the ETag of the newest
 * version (read from its history), or based_on null when nothing is stored yet.
 */
export async function preconditionOf(server: HttpServer, id: string): Promise<{ headers: Record<string, string>; basedOn?: null }> {
  const res = await fetch(`${server.url}/v1/documents/${encodeURIComponent(id)}/history`, {
    headers: { authorization: `Bearer ${server.key('owner')}` },
  });
  const tag = res.headers.get('etag');
  await res.body?.cancel();
  return tag === null ? { headers: {}, basedOn: null } : { headers: { 'if-match': tag } };
}

/** POSTs an edit with its precondition (preconditionOf); `body` is the edit's content and reason. */
export async function postEdit(
  server: HttpServer,
  id: string,
  key: string,
  body: { content: string; reason: string },
): Promise<{ status: number; json: LooseJson; text: string }> {
  const { headers, basedOn } = await preconditionOf(server, id);
  return server.call('POST', `/v1/documents/${encodeURIComponent(id)}/edits`, {
    key,
    headers,
    body: basedOn === undefined ? body : { ...body, based_on: basedOn },
  });
}

/** PATCHes a rule set with If-Match: the ETag of its newest version, read just before. */
export async function patchRuleset(
  server: HttpServer,
  id: string,
  body: unknown,
  key = server.key('owner'),
): Promise<{ status: number; json: LooseJson; text: string }> {
  const { headers } = await preconditionOf(server, id);
  return server.call('PATCH', `/v1/rulesets/${encodeURIComponent(id)}`, { key, headers, body });
}

/**
 * The state store startServer serves on: SQLite beside the data folder (the default), or PostgreSQL when
 * TOLLGATE_TEST_STATE=postgres (vitest.config.ts runs the route suites both ways).
 */
export const TEST_STATE: 'sqlite' | 'postgres' = stateOf(process.env.TOLLGATE_TEST_STATE);

function stateOf(value: string | undefined): 'sqlite' | 'postgres' {
  if (value === undefined || value === '' || value === 'sqlite') return 'sqlite';
  if (value === 'postgres') return value;
  throw new Error(`TOLLGATE_TEST_STATE is sqlite or postgres, not ${value}`);
}

export interface ServerOptions {
  /** Serve the workspace of this folder: a server started again on it finds what the last one wrote. */
  dataDir?: string;
  now?: () => Date;
  ruleTimeoutMs?: number;
  /** Tokens of OpenID Connect issuers as bearers (identity/), made for the server's URL once it listens. */
  identity?: (url: string) => Identity;
  /** The member key secret the server holds; the tests' own (custodial-test-keys.ts) unless given. SQLite only. */
  custodial?: CustodialKeys;
  /** Whether gate calls in the direct lane's shape skip the framework, as `tollgate serve`'s do (default true). */
  directGate?: boolean;
}

/**
 * How a server starts on PostgreSQL: given by postgres-route-setup.ts, the `postgres` project's setup file, so a run
 * on SQLite never reaches for the database and this module never imports postgres-harness.ts, which builds on it.
 */
let startOnPostgres: ((options: ServerOptions) => Promise<TestServer>) | undefined;

/** Makes startServer start its servers with `start` when TEST_STATE is postgres (postgres-route-setup.ts). */
export function startServersOnPostgresWith(start: (options: ServerOptions) => Promise<TestServer>): void {
  startOnPostgres = start;
}

/**
 * Starts a server in this process on a fresh demo workspace (or the data folder's, when given), on the state store
 * TEST_STATE names. On PostgreSQL, postgres-route-setup.ts (vitest.config.ts's `postgres` project) drops what a test
 * file's servers leave once the file is done.
 */
export async function startServer(options: ServerOptions = {}): Promise<TestServer> {
  if (TEST_STATE === 'sqlite') return startSqliteServer(options);
  if (startOnPostgres === undefined) {
    throw new Error("TOLLGATE_TEST_STATE=postgres runs in vitest.config.ts's postgres project, whose setup file starts the servers");
  }
  return startOnPostgres(options);
}

/** Starts a server on SQLite whatever TEST_STATE says: for tests about the data folder and its database file. */
export async function startSqliteServer(options: ServerOptions = {}): Promise<TestServer<SqliteAppContext>> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'tollgate-api-'));
  const ctx = await openContext(dataDir, {
    watch: false,
    now: options.now,
    ...(options.custodial ? { custodial: options.custodial } : {}),
  });
  return serveContext(ctx, {
    ...(options.ruleTimeoutMs !== undefined ? { ruleTimeoutMs: options.ruleTimeoutMs } : {}),
    ...(options.identity ? { identity: options.identity } : {}),
    ...(options.directGate !== undefined ? { directGate: options.directGate } : {}),
    afterStop: () => {
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  });
}

// State a test sets up or reads where no route offers it, on either store: each helper is one statement of SQL
// both databases read alike (their tables are the same: state/postgres-migrations.ts mirrors state/db.ts), written
// after the decision log's queue, as every read is. A write to members or api_keys moves the auth generation by
// trigger on both, so the server's caches see it at the next request, as they would a change from another process.

/** A recorded decision as StateStore.findDecision reads it. */
export type DecisionRow = NonNullable<Awaited<ReturnType<AppContext['state']['findDecision']>>>;

/** Runs one statement (`?` placeholders) on the server's state database and answers its rows. */
async function stateQuery<T>(server: TestServer, sql: string, params: readonly unknown[] = []): Promise<T[]> {
  const state = server.ctx.state as SqliteStateStore | PostgresStateStore;
  await state.flushDecisions();
  if (state.kind === 'sqlite') {
    const statement = state.db.prepare(sql);
    if (statement.reader) return statement.all(...params) as T[];
    statement.run(...params);
    return [];
  }
  let n = 0;
  return (
    await state.pool.query(
      sql.replace(/\?/g, () => `$${++n}`),
      [...params],
    )
  ).rows as T[];
}

/** Takes `table` away (renamed) until the answered restore: every statement that reads it fails, as a fault would. */
export async function hideTable(server: TestServer, table: 'webhook_subscriptions'): Promise<() => Promise<void>> {
  await stateQuery(server, `ALTER TABLE ${table} RENAME TO ${table}_hidden`);
  return async () => {
    await stateQuery(server, `ALTER TABLE ${table}_hidden RENAME TO ${table}`);
  };
}

/**
 * Every row of every table of the server's state database, each as text: for a test that a value is stored nowhere.
 *
 * @example
 * expect((await everyRowText(s)).filter((row) => row.includes(secret))).toEqual([]);
 */
export async function everyRowText(server: TestServer): Promise<string[]> {
  const state = server.ctx.state as SqliteStateStore | PostgresStateStore;
  const tables =
    state.kind === 'sqlite'
      ? (await stateQuery<{ name: string }>(server, "SELECT name FROM sqlite_master WHERE type = 'table'")).map((t) => t.name)
      : (
          await stateQuery<{ name: string }>(
            server,
            "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
          )
        ).map((t) => t.name);
  expect(tables.length).toBeGreaterThan(5);
  const rows: string[] = [];
  for (const table of tables) {
    for (const row of await stateQuery<Record<string, unknown>>(server, `SELECT * FROM "${table}"`)) {
      // Bytes as text too (a blob, a bytea): a value stored as bytes is still stored.
      const cells = Object.values(row).map((v) =>
        v instanceof Uint8Array ? Buffer.from(v).toString('utf8') : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v),
      );
      rows.push(`${table}: ${cells.join(' | ')}`);
    }
  }
  return rows;
}

/** Every webhook subscription's secret as the database holds it (removed ones too), by id. */
export async function storedWebhookSecrets(server: TestServer): Promise<Record<string, string>> {
  const rows = await stateQuery<{ id: string; secret: string }>(server, 'SELECT id, secret FROM webhook_subscriptions');
  return Object.fromEntries(rows.map((r) => [r.id, r.secret]));
}

/** Writes a subscription's secret as it is, as a version before sealing stored it (plain), past the stores' check. */
export async function writeWebhookSecret(server: TestServer, id: string, secret: string): Promise<void> {
  await stateQuery(server, 'UPDATE webhook_subscriptions SET secret = ? WHERE id = ?', [secret, id]);
}

/** A table's row count. */
export async function countRows(server: TestServer, table: 'decisions' | 'approvals' | 'members' | 'ruleset_runs'): Promise<number> {
  const [row] = await stateQuery<{ n: number | string }>(server, `SELECT COUNT(*) AS n FROM ${table}`);
  return Number(row?.n);
}

/** The decision recorded for a call (a failed expectation when there is none). */
export async function decisionRow(server: TestServer, callId: string): Promise<DecisionRow> {
  await server.ctx.state.flushDecisions();
  const row = await server.ctx.state.findDecision(callId);
  expect(row, `a decision for ${callId}`).toBeDefined();
  return row as DecisionRow;
}

/** Every recorded decision, in the order written. */
export function decisionRows(server: TestServer): Promise<DecisionRow[]> {
  return stateQuery<DecisionRow>(server, 'SELECT * FROM decisions ORDER BY rowid');
}

/** Every approval request, by id: a snapshot to compare. */
export function approvalRows(server: TestServer): Promise<Record<string, unknown>[]> {
  return stateQuery(server, 'SELECT * FROM approvals ORDER BY id');
}

/** Gives a member another role, as an administrator editing the database would (no route does). */
export async function setMemberRole(server: TestServer, memberId: string, role: string): Promise<void> {
  await stateQuery(server, 'UPDATE members SET role = ? WHERE id = ?', [role, memberId]);
}

/** Removes a member who has no keys. */
export async function removeMember(server: TestServer, memberId: string): Promise<void> {
  await stateQuery(server, 'DELETE FROM members WHERE id = ?', [memberId]);
}

/** Replaces the members eligible for an approval request. */
export async function setApprovers(server: TestServer, approvalId: string, memberIds: readonly string[]): Promise<void> {
  await stateQuery(server, 'UPDATE approvals SET approvers = ? WHERE id = ?', [JSON.stringify(memberIds), approvalId]);
}

/**
 * Writes a request as approved straight into the database, as one who can write it but holds no approver's key
 * would: copying a signed decision's columns (`from`, another request's) or none.
 */
export async function forgeApproval(server: TestServer, approvalId: string, from: Record<string, unknown> = {}): Promise<void> {
  await stateQuery(
    server,
    "UPDATE approvals SET status = 'approved', decided_by = ?, decided_at = ?, signature = ?, signed_content = ?, proof = ? WHERE id = ?",
    [from.decided_by ?? null, from.decided_at ?? null, from.signature ?? null, from.signed_content ?? null, from.proof ?? null, approvalId],
  );
}

/** Forgets one call's arguments, as the retention period does (its digest stays). */
export async function forgetArguments(server: TestServer, callId: string): Promise<void> {
  await stateQuery(server, 'UPDATE decisions SET arguments = NULL WHERE call_id = ?', [callId]);
}

/**
 * The database of a server on SQLite, for a test about that database itself (a constraint of its schema, a table
 * gone): such a test runs only when TEST_STATE is sqlite (`it.runIf`), and says so.
 */
export function sqliteDb(server: TestServer): SqliteAppContext['db'] {
  if (server.ctx.state.kind !== 'sqlite') throw new Error('the server is not on SQLite');
  return (server.ctx as SqliteAppContext).db;
}

/** Makes a decision read as one recorded before the `via` column existed. */
export async function clearVia(server: TestServer, callId: string): Promise<void> {
  await stateQuery(server, 'UPDATE decisions SET via = NULL WHERE call_id = ?', [callId]);
}

/** Seeds the demo into an opened context and serves it in this process on a free loopback port. */
export async function serveContext<C extends AppContext>(
  ctx: C,
  options: { ruleTimeoutMs?: number; identity?: (url: string) => Identity; directGate?: boolean; afterStop?: () => unknown } = {},
): Promise<TestServer<C>> {
  const dataDir = ctx.dataDir;
  await seedDemo(ctx);
  const keys = readDemoKeys(dataDir);
  // Made once the port is known, since an identity names the server's own URL; nothing is answered before.
  let app: ReturnType<typeof createApp> | undefined;
  let appOptions: AppOptions | undefined;
  // As `tollgate serve` serves (withDirectGate): the gate's direct lane before the app (gate/direct-lane.ts), so every
  // route suite sends its gate calls through both; the requests the app's own listener serves are counted.
  let appRequests = 0;
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve(
      {
        fetch: (req, env) => (app as ReturnType<typeof createApp>).fetch(req, env),
        hostname: '127.0.0.1',
        port: 0,
        // serve's own createServer, handed the app's listener counted; without the lane it is never asked in.
        createServer: ((serverOptions: HttpServerOptions, listener: RequestListener) =>
          withDirectGate(() => (options.directGate === false ? undefined : appOptions))(serverOptions, (req, res) => {
            appRequests++;
            return listener(req, res);
          })) as typeof createHttpServer,
      },
      () => resolve(s),
    );
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  appOptions = {
    ctx,
    ...(options.ruleTimeoutMs !== undefined ? { ruleTimeoutMs: options.ruleTimeoutMs } : {}),
    ...(options.identity ? { identity: options.identity(url) } : {}),
  };
  app = createApp(appOptions);
  return {
    url,
    dataDir,
    keys,
    ctx,
    key: (who) => demoKey(keys, who),
    call: (method, path, o) => httpCall(url, method, path, o),
    appRequests: () => appRequests,
    async stop() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await ctx.close();
      await options.afterStop?.();
    },
  };
}

export interface SpawnOptions {
  /** Serve on this PostgreSQL database (`--database`) rather than the data folder's SQLite. */
  database?: string;
  /** Pass --demo (the default): seeds an empty workspace and writes DIR/demo-keys.json. */
  demo?: boolean;
  /** Added to the child's environment (TOLLGATE_GATEWAY_HEARTBEAT_MS, say). */
  env?: Record<string, string>;
  /** Node's own options before the bin (`--cpu-prof`, which NODE_OPTIONS does not take). */
  nodeArgs?: readonly string[];
}

/**
 * Runs `tollgate serve --data DIR --demo --port 0` (and `args`; `--database URL` when `options.database`) as a
 * child process; resolves once it prints its URL.
 */
export function spawnServer(
  dataDir: string,
  args: readonly string[] = [],
  options: SpawnOptions = {},
): Promise<{ url: string; child: ChildProcess }> {
  const flags = [
    ...(options.demo === false ? [] : ['--demo']),
    ...(options.database === undefined ? [] : ['--database', options.database]),
  ];
  const child = spawn(
    process.execPath,
    [
      ...(options.nodeArgs ?? []),
      join(REPO_ROOT, 'apps/api/bin/tollgate.cjs'),
      'serve',
      '--data',
      dataDir,
      ...flags,
      '--port',
      '0',
      ...args,
    ],
    {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      // A shared database needs the member key secret, as every node of a deployment has it (docs/approver-keys.md).
      env: { TOLLGATE_MEMBER_KEY_SECRET: TEST_MEMBER_KEY_SECRET, ...process.env, ...options.env },
    },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    // A server that never says it serves is stopped, so a failed start leaves no process behind.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not start: ${out}`));
    }, 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /serving the console and API at (http:\/\/[^/\s]+)\//.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1] as string, child });
      }
    });
    // What it says on stderr is kept for the failure's message (and read, so a full pipe never blocks it).
    child.stderr?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code}: ${out}`));
    });
  });
}

/**
 * Sends a large body with node:http and resolves on the answer, even when the server answers (413) and
 * closes before the whole body is written: fetch reports that as a failed request.
 */
export function postLarge(
  url: string,
  path: string,
  key: string,
  body: string,
): Promise<{ status: number; json: LooseJson; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url + path,
      { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        res.on('end', () => {
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, json, text });
        });
      },
    );
    req.on('error', (e) => setTimeout(() => reject(e), 200));
    req.end(body);
  });
}
