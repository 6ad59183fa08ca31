// Three `tollgate serve` nodes whose database dies or stalls under them (docs/deploy.md, "Sizing" and "When the
// database is unreachable"): every node reaches PostgreSQL through one TCP proxy (db-proxy.ts) while calls of each
// kind (no session, a session, held for approval) are in flight. Meanwhile each call is decided or refused 503
// DATABASE_UNAVAILABLE with Retry-After within the pool's bounds (apps/api/src/server/postgres/pool-bounds.ts),
// readiness fails naming `database` (apps/api/src/server/health/readiness.ts), no node exits, and no decision a
// node acknowledged is missing from the log (state/decisions/postgres-log.ts acknowledges only after the commit);
// once the proxy forwards again every node is ready and decides again, without a restart.
import { type ChildProcess, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshSchema, POSTGRES_UNREACHABLE, TEST_DATABASE_URL, type TestSchema } from '../../../packages/store/test/postgres-fixture.ts';
import { POOL_BOUND_VARIABLES } from '../src/server/postgres/pool-bounds.ts';
import { DbProxy, throughProxy } from './db-proxy.ts';
import { agentKey, type HttpServer, type LooseJson, REPO_ROOT, readDemoKeys, serverAt, spawnServer } from './server-harness.ts';

const BIN = join(REPO_ROOT, 'apps/api/bin/tollgate.cjs');
const CALLS = '/v1/agents/support-bot/calls';
/** Small bounds, so a dead or stalled database is answered within about a second; a small pool, so calls queue for it. */
const BOUNDS: Record<string, string> = {
  [POOL_BOUND_VARIABLES.max]: '8',
  [POOL_BOUND_VARIABLES.connectionTimeoutMs]: '800',
  [POOL_BOUND_VARIABLES.queryTimeoutMs]: '1200',
  [POOL_BOUND_VARIABLES.statementTimeoutMs]: '1000',
  [POOL_BOUND_VARIABLES.lockTimeoutMs]: '1000',
};
/** The longest a call or a readiness probe may take: the bounds above and a margin for a loaded machine. */
const ANSWER_WITHIN_MS = 4_000;
/** How long a node may take to be ready again once the database answers (three nodes on a loaded machine). */
const RECOVER_WITHIN_MS = 10_000;
/** What a node's stderr shows of a connection's error left unhandled: pool-bounds.ts guards every client. */
const CRASH_SIGNS = [/Unhandled 'error'/, /Connection terminated unexpectedly/];

type Node = HttpServer & { child: ChildProcess; stderr: () => string; name: string };
type Kind = 'plain' | 'session' | 'held';
interface Answer {
  node: string;
  kind: Kind;
  status: number;
  json: LooseJson;
  retryAfter: string | null;
  ms: number;
}

let schema: TestSchema | undefined;
let proxy: DbProxy | undefined;
const children: ChildProcess[] = [];
const dataDirs: string[] = [];
let nodes: Node[] = [];
let agent = '';

async function startNode(name: string, demo: boolean): Promise<Node> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-faults-cluster-'));
  dataDirs.push(dataDir);
  const { url, child } = await spawnServer(dataDir, [], {
    database: throughProxy((schema as TestSchema).url, (proxy as DbProxy).port),
    demo,
    env: BOUNDS,
  });
  children.push(child);
  // Kept for the assertions and the failures' messages, so a crash says what the node said.
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return { ...serverAt(url, readDemoKeys(dataDirs[0] as string)), child, stderr: () => stderr, name };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

beforeAll(async () => {
  if (POSTGRES_UNREACHABLE !== undefined) return;
  schema = await freshSchema('faults_cluster');
  const migrated = spawnSync(process.execPath, [BIN, 'migrate', '--database', schema.url], { cwd: REPO_ROOT, encoding: 'utf8' });
  expect(migrated.status, migrated.stderr).toBe(0);
  const target = new URL(TEST_DATABASE_URL);
  proxy = new DbProxy({ host: target.hostname, port: Number(target.port || 5432) });
  await proxy.open();
  const first = await startNode('node 1', true);
  nodes = [first, ...(await Promise.all([startNode('node 2', false), startNode('node 3', false)]))];
  agent = agentKey(first, 'support-bot');
}, 90_000);

afterAll(async () => {
  proxy?.set('forward');
  await Promise.all(children.map(stop));
  await proxy?.close();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  await schema?.drop();
}, 30_000);

/** One call of `kind` to `n`, timed, with its Retry-After (the harness's call keeps no headers). */
async function call(n: Node, kind: Kind, id: string, session = 's-0'): Promise<Answer> {
  const body =
    kind === 'held'
      ? { tool: 'issue_refund', arguments: { amount: '500', order: id } }
      : { tool: 'read_order', arguments: { order_id: id }, ...(kind === 'session' ? { session } : {}) };
  const started = performance.now();
  const res = await fetch(n.url + CALLS, {
    method: 'POST',
    headers: { authorization: `Bearer ${agent}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  const ms = performance.now() - started;
  let json: LooseJson;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { node: n.name, kind, status: res.status, json, retryAfter: res.headers.get('retry-after'), ms };
}

/** What a node's stderr says, for a failure's message. */
const said = (n: Node) => `${n.name} stderr:\n${n.stderr().slice(-4_000)}`;

/** Each answer is a decision of the kind's or a refusal with Retry-After, within the bound; the decided ones. */
function checkAnswers(answers: Answer[]): Answer[] {
  const decided: Answer[] = [];
  for (const a of answers) {
    const n = nodes.find((x) => x.name === a.node) as Node;
    const about = `${a.node} ${a.kind}: ${a.status} ${JSON.stringify(a.json)} in ${Math.round(a.ms)} ms\n${said(n)}`;
    expect(a.ms, about).toBeLessThan(ANSWER_WITHIN_MS);
    if (a.status === 200) {
      expect(a.json.decision, about).toBe(a.kind === 'held' ? 'require_approval' : 'allow');
      expect(typeof a.json.call_id, about).toBe('string');
      if (a.kind === 'held') expect(typeof a.json.approval?.id, about).toBe('string');
      decided.push(a);
    } else {
      expect(a.status, about).toBe(503);
      expect(a.json?.error?.code, about).toBe('DATABASE_UNAVAILABLE');
      expect(a.retryAfter, about).toMatch(/^[1-9][0-9]*$/);
    }
  }
  return decided;
}

/** Readiness of `n`, timed. */
async function ready(n: Node): Promise<{ status: number; json: LooseJson; ms: number }> {
  const started = performance.now();
  const r = await n.call('GET', '/v1/health/ready');
  return { ...r, ms: performance.now() - started };
}

function expectUnready(n: Node, r: { status: number; json: LooseJson; ms: number }): void {
  const about = `${n.name} readiness ${r.status} ${JSON.stringify(r.json)} in ${Math.round(r.ms)} ms\n${said(n)}`;
  expect(r.ms, about).toBeLessThan(ANSWER_WITHIN_MS);
  expect(r.status, about).toBe(503);
  expect(
    r.json.checks.find((c: { name: string }) => c.name === 'database'),
    about,
  ).toEqual({ name: 'database', ok: false });
}

/** Polls until every node is ready again and decides a call of each kind. */
async function recovered(label: string): Promise<void> {
  await Promise.all(
    nodes.map(async (n) => {
      const started = performance.now();
      let last = await ready(n);
      while (last.status !== 200) {
        if (performance.now() - started > RECOVER_WITHIN_MS) {
          throw new Error(`${n.name} not ready ${RECOVER_WITHIN_MS} ms after ${label}: ${JSON.stringify(last.json)}\n${said(n)}`);
        }
        await new Promise((r) => setTimeout(r, 100));
        last = await ready(n);
      }
      for (const kind of ['plain', 'session', 'held'] as const) {
        const a = await call(n, kind, `after-${label}-${n.name}-${kind}`);
        expect(a.status, `${n.name} ${kind} after ${label}: ${JSON.stringify(a.json)}\n${said(n)}`).toBe(200);
      }
    }),
  );
}

/** Every node still running, and none of them said a connection's error went unhandled. */
function expectAlive(): void {
  for (const n of nodes) {
    expect({ node: n.name, exitCode: n.child.exitCode, signalCode: n.child.signalCode }, said(n)).toEqual({
      node: n.name,
      exitCode: null,
      signalCode: null,
    });
    for (const sign of CRASH_SIGNS) expect(n.stderr(), said(n)).not.toMatch(sign);
  }
}

/** Every decided call's row, with the same decision, and each held call's approval request: read past the proxy. */
async function expectRecorded(decided: Answer[]): Promise<void> {
  const db = new pg.Client({ connectionString: (schema as TestSchema).url });
  await db.connect();
  try {
    const ids = decided.map((a) => a.json.call_id as string);
    const rows = (await db.query('SELECT call_id, decision FROM decisions WHERE call_id = ANY($1)', [ids])).rows as {
      call_id: string;
      decision: string;
    }[];
    const recorded = new Map(rows.map((r) => [r.call_id, r.decision]));
    const lost = decided.filter((a) => recorded.get(a.json.call_id) !== a.json.decision);
    const everySaid = nodes.map(said).join('\n');
    expect(
      lost.map((a) => `${a.node} ${a.kind} ${a.json.call_id}: ${recorded.get(a.json.call_id) ?? 'no row'}`),
      everySaid,
    ).toEqual([]);
    const held = decided.filter((a) => a.kind === 'held');
    const approvals = (await db.query('SELECT id, call_id FROM approvals WHERE call_id = ANY($1)', [held.map((a) => a.json.call_id)]))
      .rows as { id: string; call_id: string }[];
    const requested = new Map(approvals.map((r) => [r.call_id, r.id]));
    const missing = held.filter((a) => requested.get(a.json.call_id) !== a.json.approval.id);
    expect(
      missing.map((a) => `${a.node} ${a.json.call_id}: ${requested.get(a.json.call_id) ?? 'no approval'}`),
      everySaid,
    ).toEqual([]);
  } finally {
    await db.end();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(POSTGRES_UNREACHABLE !== undefined)(
  `three nodes behind one failing database connection${POSTGRES_UNREACHABLE ? ` (skipped: ${POSTGRES_UNREACHABLE})` : ''}`,
  () => {
    it('refuses within the bound while the connections are cut under load, loses no acknowledged call, and recovers', async () => {
      const KINDS: Kind[] = ['plain', 'session', 'held'];
      // Every node decides each kind first: the cluster works, and its first calls' start-up costs are paid.
      const warm = await Promise.all(nodes.flatMap((n) => KINDS.map((kind) => call(n, kind, `warm-${n.name}-${kind}`))));
      const warmed = checkAnswers(warm);
      expect(warmed).toHaveLength(warm.length);
      const pending: Promise<Answer>[] = [];
      /** One round: 36 calls, 12 to each node, each kind alike, the sessions' spread over four names. */
      const round = (r: string) => {
        for (let i = 0; i < 36; i++) {
          pending.push(call(nodes[i % 3] as Node, KINDS[Math.floor(i / 3) % 3] as Kind, `${r}-${i}`, `s-${i % 4}`));
        }
      };
      // Rounds every 150 ms, the cut falling while the last ones are in flight, and on through the cut.
      for (let r = 0; r < 3; r++) {
        round(`before-${r}`);
        await sleep(150);
      }
      round('cutting');
      await sleep(20);
      proxy?.set('cut');
      const cutAt = performance.now();
      let readiness: Promise<{ n: Node; r: Awaited<ReturnType<typeof ready>> }[]> | undefined;
      for (let r = 0; performance.now() - cutAt < 1_000; r++) {
        round(`cut-${r}`);
        await sleep(250);
        // Asked once the nodes have met the cut, while it lasts.
        readiness ??= Promise.all(nodes.map(async (n) => ({ n, r: await ready(n) })));
      }
      const probed = await readiness;
      proxy?.set('forward');
      round('restored');
      for (const { n, r } of probed ?? []) expectUnready(n, r);

      const answers = await Promise.all(pending);
      const decided = checkAnswers(answers);
      // The cut must have refused calls, and calls been decided around it: else it tested nothing.
      expect(answers.filter((a) => a.status === 503).length).toBeGreaterThan(0);
      expect(decided.length).toBeGreaterThan(0);
      await recovered('the cut');
      expectAlive();
      await expectRecorded([...warmed, ...decided]);
    }, 30_000);

    it('refuses within the bound while the database stalls, and recovers once it answers', async () => {
      proxy?.set('stall');
      proxy?.drop();
      const readiness = nodes.map((n) => ready(n).then((r) => ({ n, r })));
      // 36 calls, 12 to each node, each kind alike: more than a node's pool holds, so some wait for a connection.
      const answers = await Promise.all(
        Array.from({ length: 36 }, (_, i) =>
          call(nodes[i % 3] as Node, (['plain', 'session', 'held'] as const)[Math.floor(i / 3) % 3] as Kind, `stalled-${i}`, `s-${i % 4}`),
        ),
      );
      for (const { n, r } of await Promise.all(readiness)) expectUnready(n, r);
      const decided = checkAnswers(answers);
      expect(decided.map((a) => `${a.node} ${a.kind}`)).toEqual([]);
      proxy?.set('forward');
      proxy?.drop();
      await recovered('the stall');
      expectAlive();
    }, 30_000);
  },
);
