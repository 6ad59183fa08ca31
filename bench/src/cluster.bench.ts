// The cluster suite: decide throughput and latency of `tollgate serve` as child processes over real HTTP on
// loopback, in three deployments measured in one run (cluster-nodes.ts): one node on SQLite, one node on
// PostgreSQL, and two nodes on one PostgreSQL database with the load split between them. The load is the same for
// each: autocannon (load-generator.ts, a process of its own) with a fixed number of connections for a fixed time,
// support-bot's allowed read_order, without a session and with one (256 sessions named in turn, so a session's
// history grows as an agent's would). The deployments and variants take turns within each run, so ratios pair runs.
import { spawnSync } from 'node:child_process';
import { REPO_ROOT } from '../../apps/api/test/server-harness.ts';
import { POSTGRES_UNREACHABLE, TEST_DATABASE_URL } from '../../packages/store/test/postgres-fixture.ts';
import { type Deployment, startDeployment } from './cluster-nodes.ts';
import { type LoadGenerator, SESSION_SLOT, startLoadGenerator } from './load-generator.ts';
import { type Figure, figureOf, MIN_RUNS, median, ratios } from './measure.ts';
import { PgWireCounter } from './pg-wire-counter.ts';

const PATH = '/v1/agents/support-bot/calls';
const MAX_REQUESTS = 200_000;
const SESSIONS = 256;

/** The load's shape: connections, seconds a run, runs, and the uncounted warm-up of each contender. */
export interface ClusterLoad {
  connections: number;
  seconds: number;
  runs: number;
  warmupSeconds: number;
}

export const CLUSTER_LOAD: ClusterLoad = { connections: 16, seconds: 2, runs: MIN_RUNS, warmupSeconds: 1 };

interface Variant {
  name: string;
  body: string;
  sessions?: number;
}

const VARIANTS: Variant[] = [
  { name: 'no session', body: JSON.stringify({ tool: 'read_order', arguments: { id: 'o-1' } }) },
  {
    name: 'session',
    body: JSON.stringify({ tool: 'read_order', arguments: { id: 'o-1' }, session: SESSION_SLOT }),
    sessions: SESSIONS,
  },
];

/** One run of one deployment and variant. */
export interface ClusterRun {
  deployment: string;
  variant: string;
  perSecond: number;
  /** Connections / throughput (Little's law): autocannon's percentiles are whole milliseconds. */
  mean: number;
  p50: number;
  p99: number;
  requests: number;
  failed: number;
}

async function load(generator: LoadGenerator, d: Deployment, v: Variant, connections: number, seconds: number): Promise<ClusterRun> {
  const urls = d.urls.map((u) => u + PATH);
  const result = await generator.load({
    url: urls.length === 1 ? (urls[0] as string) : urls,
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${d.agentKey}` },
    body: v.body,
    connections,
    duration: seconds,
    maxOverallRequests: Math.max(MAX_REQUESTS, connections),
    ...(v.sessions === undefined ? {} : { sessions: v.sessions }),
  });
  return {
    deployment: d.name,
    variant: v.name,
    perSecond: result.requests.average,
    mean: (connections / result.requests.average) * 1000,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: Math.round(result.requests.average * result.duration),
    failed: result.non2xx + result.errors + result.timeouts,
  };
}

/** Every node of the deployment allows the call of each variant, or the suite stops: a refusal is not a decision to time. */
async function probe(d: Deployment): Promise<void> {
  for (const url of d.urls) {
    for (const v of VARIANTS) {
      const res = await fetch(url + PATH, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${d.agentKey}` },
        body: v.body.replace(SESSION_SLOT, 'bench-probe'),
      });
      const text = await res.text();
      if (res.status !== 200 || JSON.parse(text).decision !== 'allow')
        throw new Error(`${d.name} at ${url} answered ${res.status} ${text}`);
    }
  }
}

/** What one call asks of PostgreSQL, counted on the wire over a run of one variant. */
export interface PerCall {
  variant: string;
  calls: number;
  roundTrips: number;
  statements: number;
}

/**
 * Round trips and statements per call on one PostgreSQL node, counted by a proxy between it and the database
 * (pg-wire-counter.ts) over one run of each variant: a deployment of its own, so the proxy never slows the
 * figures above. Counted from the node's side, with its heartbeats and what it reads at start (uncounted, after
 * the probe) among them; at thousands of calls a run, those are noise.
 */
async function countPerCall(generator: LoadGenerator, shape: ClusterLoad): Promise<PerCall[]> {
  const counter = new PgWireCounter(new URL(TEST_DATABASE_URL));
  const d = await startDeployment('PostgreSQL, 1 node, counted', 'postgres', 1, (url) => {
    const target = new URL(url);
    return counter.open().then((through) => {
      // The schema's search path and credentials, through the proxy's port.
      const via = new URL(through);
      target.host = via.host;
      return target.toString();
    });
  });
  try {
    await probe(d);
    const counted: PerCall[] = [];
    for (const v of VARIANTS) {
      counter.take();
      const run = await load(generator, d, v, shape.connections, shape.seconds);
      const counts = counter.take();
      counted.push({ variant: v.name, calls: run.requests, ...counts });
    }
    return counted;
  } finally {
    await d.stop();
    await counter.close();
  }
}

/**
 * Starts the deployments (PostgreSQL's only when it answers), then loads each with each variant: a warm-up each,
 * then `runs` runs in which they take turns.
 *
 * @example
 * const { runs } = await measureCluster({ connections: 4, seconds: 1, runs: 1, warmupSeconds: 0 });
 */
export async function measureCluster(
  shape: ClusterLoad,
): Promise<{ runs: ClusterRun[]; deployments: string[]; notes: string[]; perCall: PerCall[] }> {
  const notes: string[] = [];
  const deployments: Deployment[] = [];
  let generator: LoadGenerator | undefined;
  try {
    deployments.push(await startDeployment('SQLite, 1 node', 'sqlite'));
    if (POSTGRES_UNREACHABLE === undefined) {
      deployments.push(await startDeployment('PostgreSQL, 1 node', 'postgres'));
      deployments.push(await startDeployment('PostgreSQL, 2 nodes', 'postgres', 2));
    } else notes.push(`cluster: the PostgreSQL deployments were not measured: ${POSTGRES_UNREACHABLE}`);
    for (const d of deployments) await probe(d);
    generator = await startLoadGenerator();
    if (shape.warmupSeconds > 0) {
      for (const d of deployments) for (const v of VARIANTS) await load(generator, d, v, shape.connections, shape.warmupSeconds);
    }
    const runs: ClusterRun[] = [];
    for (let run = 0; run < shape.runs; run++) {
      for (const d of deployments) for (const v of VARIANTS) runs.push(await load(generator, d, v, shape.connections, shape.seconds));
    }
    const perCall = POSTGRES_UNREACHABLE === undefined ? await countPerCall(generator, shape) : [];
    return { runs, deployments: deployments.map((d) => d.name), notes, perCall };
  } finally {
    await generator?.stop();
    for (const d of deployments) await d.stop();
  }
}

export async function runClusterSuite(): Promise<{ figures: Figure[]; notes: string[] }> {
  // The nodes run the bundle while it is fresh, as after `npm install`; else they would run through tsx.
  const build = spawnSync(process.execPath, ['scripts/build-cli.mjs', '--if-stale'], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`the CLI bundle was not built: ${build.stderr}`);
  const shape = CLUSTER_LOAD;
  const { runs, deployments, notes, perCall } = await measureCluster(shape);
  const figures: Figure[] = [];
  const of = (d: string, v: string) => runs.filter((r) => r.deployment === d && r.variant === v);
  const width = Math.max(...deployments.map((d) => d.length));
  console.log(`\ncluster: support-bot's allowed read_order, c=${shape.connections}, ${shape.runs} runs of ${shape.seconds} s, medians`);
  console.log(
    `${'deployment'.padEnd(width)}  ${'variant'.padEnd(10)}  ${'calls/s'.padStart(8)}  ${'mean ms'.padStart(8)}  ${'p50 ms'.padStart(7)}  ${'p99 ms'.padStart(7)}  failed`,
  );
  for (const d of deployments) {
    for (const v of VARIANTS) {
      const mine = of(d, v.name);
      const at = `cluster ${d}, ${v.name}, c=${shape.connections}`;
      figures.push(
        figureOf(
          'cluster',
          `${at} calls/s`,
          'req/s',
          mine.map((r) => r.perSecond),
        ),
      );
      figures.push(
        figureOf(
          'cluster',
          `${at} latency mean`,
          'ms',
          mine.map((r) => r.mean),
        ),
      );
      figures.push(
        figureOf(
          'cluster',
          `${at} latency p50`,
          'ms',
          mine.map((r) => r.p50),
        ),
      );
      figures.push(
        figureOf(
          'cluster',
          `${at} latency p99`,
          'ms',
          mine.map((r) => r.p99),
        ),
      );
      const failed = mine.reduce((n, r) => n + r.failed, 0);
      if (failed > 0) notes.push(`cluster: ${failed} calls to ${d} (${v.name}) failed or were not 2xx`);
      const cell = (pick: (r: ClusterRun) => number, digits: number, pad: number) => median(mine.map(pick)).toFixed(digits).padStart(pad);
      console.log(
        `${d.padEnd(width)}  ${v.name.padEnd(10)}  ${cell((r) => r.perSecond, 0, 8)}  ${cell((r) => r.mean, 2, 8)}  ${cell((r) => r.p50, 0, 7)}  ${cell((r) => r.p99, 0, 7)}  ${failed}`,
      );
    }
  }
  // Overheads, run by run: PostgreSQL against SQLite on one node, and a second node against one.
  const pairs: [string, string, string][] = [
    ['PostgreSQL, 1 node', 'SQLite, 1 node', 'PostgreSQL / SQLite, 1 node'],
    ['PostgreSQL, 2 nodes', 'PostgreSQL, 1 node', 'PostgreSQL 2 nodes / 1 node'],
  ];
  for (const [a, b, label] of pairs) {
    if (!deployments.includes(a) || !deployments.includes(b)) continue;
    for (const v of VARIANTS) {
      figures.push(
        figureOf(
          'cluster',
          `cluster ${label}, ${v.name}, c=${shape.connections}`,
          '×',
          ratios(
            of(a, v.name).map((r) => r.perSecond),
            of(b, v.name).map((r) => r.perSecond),
          ),
          'calls/s, per run',
        ),
      );
    }
  }
  for (const p of perCall) {
    const per = (n: number) => (p.calls > 0 ? n / p.calls : Number.NaN);
    figures.push(
      figureOf('cluster', `cluster PostgreSQL round trips per call, ${p.variant}`, 'trips', [per(p.roundTrips)], 'counted on the wire'),
    );
    figures.push(
      figureOf('cluster', `cluster PostgreSQL statements per call, ${p.variant}`, 'stmts', [per(p.statements)], 'counted on the wire'),
    );
    notes.push(
      `cluster: PostgreSQL, 1 node, ${p.variant}: ${per(p.roundTrips).toFixed(2)} round trips and ${per(p.statements).toFixed(2)} statements per call (${p.calls} calls counted on the wire)`,
    );
  }
  notes.push(
    `cluster: ${shape.runs} runs of ${shape.seconds} s per deployment and variant, interleaved, after a ${shape.warmupSeconds} s warm-up of each; ` +
      `c=${shape.connections} (split evenly over the two nodes), every node a tollgate serve child process on loopback, autocannon in a child process of its own`,
  );
  return { figures, notes };
}
