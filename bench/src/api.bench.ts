// The api suite: decide throughput and latency over real HTTP on loopback with autocannon, against the
// real server as it is installed (`tollgate serve`, the bin and its bundle, in a process of its own, on a fresh
// demo data folder), beside a bare Hono route, the gate's middleware alone, and Cerbos's HTTP check endpoint
// (its own process) deciding the same call, at concurrency 1, 16 and 64.
// Every run is bounded in time and in requests; the load runs in a child process of its own
// (load-generator.ts), never in the servers' process, so a ratio measures the servers and not the load
// generator's contention with one of them.

import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { bearerAuth } from '../../apps/api/src/server/auth.ts';
import { bodyLimit, MAX_REQUEST_BODY_BYTES } from '../../apps/api/src/server/body-limit.ts';
import type { AppContext } from '../../apps/api/src/server/context.ts';
import { router } from '../../apps/api/src/server/openapi.ts';
import { GENESIS } from '../../apps/api/src/server/record/chain-form.ts';
import { decisionEntryValues, placeOf } from '../../apps/api/src/server/record/decision-entry.ts';
import { spawnServer, startServer } from '../../apps/api/test/server-harness.ts';
import { cpuFigures, cpuNow, perRequest, type RunCpu, sharedCoreFigures } from './api-cpu.ts';
import { cerbosBinary, cerbosCheckBody, cerbosResources, startCerbos } from './cerbos-peer.ts';
import { buildCliBundle } from './cli-bundle.ts';
import { type LoadGenerator, startLoadGenerator } from './load-generator.ts';
import { type Figure, figureOf, MIN_RUNS, measureStream, median, ratios } from './measure.ts';
import { type Call, REFUND_TOOLS } from './streams.ts';

const CONCURRENCY = [1, 16, 64] as const;
const SECONDS = 2;
const MAX_REQUESTS = 200_000;
/** The concurrency whose runs also report the CPU each request took (cpu-time.ts). */
const CPU_AT = 16;

interface Target {
  name: string;
  url: string;
  headers: Record<string, string>;
  body: string;
  /** The process serving it when not this one (`tollgate serve`, Cerbos): whose CPU time a request costs. */
  pid?: number | undefined;
  /** Whether that process is Node's, whose event loop is its main thread. */
  node?: boolean;
}

interface Run {
  target: string;
  connections: number;
  perSecond: number;
  p50: number;
  p99: number;
  mean: number;
  requests: number;
  failed: number;
  /** CPU µs a request (api-cpu.ts). */
  cpu: RunCpu;
}

async function load(generator: LoadGenerator, target: Target, connections: number, seconds: number): Promise<Run> {
  const before = cpuNow(target, generator.pid);
  const result = await generator.load({
    url: target.url,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...target.headers },
    body: target.body,
    connections,
    duration: seconds,
    maxOverallRequests: Math.max(MAX_REQUESTS, connections),
  });
  const after = cpuNow(target, generator.pid);
  const requests = Math.round(result.requests.average * result.duration);
  return {
    target: target.name,
    connections,
    perSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    // autocannon records latencies in whole milliseconds, so its mean of sub-millisecond answers is mostly
    // zeros; with every connection busy the mean latency is connections / throughput (Little's law).
    mean: (connections / result.requests.average) * 1000,
    requests,
    failed: result.non2xx + result.errors + result.timeouts,
    cpu: perRequest(before, after, requests),
  };
}

/** A bare Hono app on loopback that reads the JSON body and answers {status: 'ok'}. */
async function startBare(): Promise<{ url: string; stop(): Promise<void> }> {
  const app = new Hono().post('/', async (c) => {
    await c.req.json();
    return c.json({ status: 'ok' });
  });
  const served = await serveOnLoopback(app);
  return { ...served, url: `${served.url}/` };
}

/**
 * The gate's route as the framework serves it, without the gate: Hono under /v1 with the API's body limit
 * and bearer-key middleware, a route at the gate's path that reads the JSON body and answers. Between bare
 * Hono and the gate, it shows what the framework layers cost and what the decision and its record cost.
 */
async function startLayersOnly(ctx: AppContext): Promise<{ url: string; stop(): Promise<void> }> {
  const api = router();
  api.use('*', bodyLimit({ maxSize: MAX_REQUEST_BODY_BYTES, onError: (c) => c.json({ error: 'too large' }, 413) }));
  api.use('*', bearerAuth(ctx));
  api.post('/agents/:agent/calls', async (c) => {
    await c.req.json();
    return c.json({ status: 'ok' });
  });
  const app = new Hono().route('/v1', api);
  return serveOnLoopback(app);
}

/** Serves a Hono app on a free loopback port: its origin, and a way to stop it. */
async function serveOnLoopback(app: Hono): Promise<{ url: string; stop(): Promise<void> }> {
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function runApiSuite(): Promise<{ figures: Figure[]; notes: string[] }> {
  // The demo seeded in process (its keys, and the state the contender's key check reads), then the gate served as it
  // is installed: `tollgate serve`, the bin and its bundle, on the same data folder, in a process of its own.
  buildCliBundle();
  const server = await startServer();
  // The secret that sealed the seeding server's keys: the environment's, else the folder's own file (an empty value
  // reads as none given, member-key-secret.ts), as the mcp suite serves its folder.
  const serve = await spawnServer(server.dataDir, [], {
    demo: false,
    env: { TOLLGATE_MEMBER_KEY_SECRET: process.env.TOLLGATE_MEMBER_KEY_SECRET ?? '' },
  });
  const bare = await startBare();
  const layers = await startLayersOnly(server.ctx);
  const notes: string[] = [];
  const binary = cerbosBinary();
  const cerbos = 'missing' in binary ? undefined : await startCerbos();
  const generator = await startLoadGenerator();
  try {
    const gateBody = JSON.stringify({ tool: 'issue_refund', arguments: { amount: '50' } });
    const gate: Target = {
      name: 'gate POST /v1/agents/support-bot/calls',
      url: `${serve.url}/v1/agents/support-bot/calls`,
      headers: { authorization: `Bearer ${server.key('agent')}` },
      body: gateBody,
      pid: serve.child.pid,
      node: true,
    };
    const probe = await fetch(gate.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...gate.headers },
      body: gateBody,
    });
    let decide = gate;
    if (probe.status !== 200) {
      // The gate route does not answer yet: measure the stateless evaluate route instead, and say so.
      const refunds = (await server.ctx.store.get('policies/refunds.policy.json'))?.text ?? '{}';
      decide = {
        name: 'evaluate POST /v1/policies/evaluate (gate fallback)',
        url: `${serve.url}/v1/policies/evaluate`,
        headers: { authorization: `Bearer ${server.key('developer')}` },
        body: JSON.stringify({
          document: JSON.parse(refunds),
          tool: { name: 'issue_refund', action: 'refund.issue', amount: { pointer: '/amount', currency: 'USD' } },
          arguments: { amount: '50' },
        }),
      };
      notes.push(`api: the gate route answered ${probe.status}, so POST /v1/policies/evaluate was measured instead`);
    }
    const targets: Target[] = [
      decide,
      { name: 'bare Hono POST /', url: bare.url, headers: {}, body: gateBody },
      {
        name: "Hono + the gate's middleware, no decision",
        url: `${layers.url}/v1/agents/support-bot/calls`,
        headers: gate.headers,
        body: gateBody,
      },
    ];
    if (cerbos) {
      // The same call (a 50 USD refund) as Cerbos is asked it: both resource policies in one check request.
      const resources = cerbosResources({ tool: REFUND_TOOLS[2] as Call['tool'], args: { amount: '50' } }, 1) ?? [];
      const body = cerbosCheckBody(resources);
      const answer = await fetch(cerbos.checkUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      notes.push(`api: Cerbos ${cerbos.version} answers the 50 USD refund with ${await answer.text()}`);
      targets.push({
        name: `Cerbos ${cerbos.version} POST /api/check/resources`,
        url: cerbos.checkUrl,
        headers: {},
        body,
        pid: cerbos.pid,
      });
    } else if ('missing' in binary) notes.push(`api: Cerbos not measurable here: ${binary.missing}`);

    // A short warm-up of each, uncounted; then every run loads each target in turn, so ratios pair runs.
    for (const t of targets) await load(generator, t, 16, 1);
    const runs: Run[] = [];
    for (const connections of CONCURRENCY) {
      for (let run = 0; run < MIN_RUNS; run++) for (const t of targets) runs.push(await load(generator, t, connections, SECONDS));
    }

    const figures: Figure[] = [];
    const of = (t: Target, c: number) => runs.filter((r) => r.target === t.name && r.connections === c);
    for (const connections of CONCURRENCY) {
      for (const t of targets) {
        const mine = of(t, connections);
        const at = `api ${t.name} c=${connections}`;
        figures.push(
          figureOf(
            'api',
            `${at} requests/s`,
            'req/s',
            mine.map((r) => r.perSecond),
          ),
        );
        // autocannon's percentiles are whole milliseconds; the mean is from Little's law, exact to the fraction.
        figures.push(
          figureOf(
            'api',
            `${at} latency mean`,
            'ms',
            mine.map((r) => r.mean),
          ),
        );
        figures.push(
          figureOf(
            'api',
            `${at} latency p50`,
            'ms',
            mine.map((r) => r.p50),
          ),
        );
        figures.push(
          figureOf(
            'api',
            `${at} latency p99`,
            'ms',
            mine.map((r) => r.p99),
          ),
        );
        if (connections === CPU_AT) figures.push(...cpuFigures(at, t, mine));
        const failed = mine.reduce((n, r) => n + r.failed, 0);
        if (failed > 0) notes.push(`api: ${failed} requests to ${t.name} at c=${connections} failed or were not 2xx`);
      }
      const decided = of(decide, connections).map((r) => r.perSecond);
      for (const t of targets.slice(1)) {
        const label = t.name.startsWith('bare') ? 'bare Hono' : t.name.startsWith('Hono +') ? "Hono + the gate's middleware" : 'Cerbos';
        figures.push(
          figureOf(
            'api',
            `api decide / ${label} c=${connections}`,
            '×',
            ratios(
              decided,
              of(t, connections).map((r) => r.perSecond),
            ),
            'req/s, per run',
          ),
        );
      }
      // The framework's ceiling: what the gate's route would serve if deciding and recording cost nothing.
      const layered = targets.find((t) => t.name.startsWith('Hono +'));
      const bareTarget = targets.find((t) => t.name.startsWith('bare'));
      if (layered && bareTarget) {
        figures.push(
          figureOf(
            'api',
            `api Hono + the gate's middleware / bare Hono c=${connections}`,
            '×',
            ratios(
              of(layered, connections).map((r) => r.perSecond),
              of(bareTarget, connections).map((r) => r.perSecond),
            ),
            'req/s, per run: the ceiling of decide / bare Hono',
          ),
        );
      }
    }
    const cerbosTarget = targets.find((t) => t.name.startsWith('Cerbos'));
    if (cerbosTarget) figures.push(...sharedCoreFigures(of(decide, CPU_AT), of(cerbosTarget, CPU_AT), CPU_AT));
    figures.push(...chainFigures(of(decide, 16).map((r) => r.perSecond)));
    notes.push(
      `api: ${MIN_RUNS} runs of ${SECONDS} s per target and concurrency (at most ${MAX_REQUESTS} requests a run), interleaved, after a 1 s warm-up; ` +
        'loopback, the gate as `tollgate serve` (the bin and its bundle) in a process of its own, bare Hono and the contender in process, Cerbos as its own process, autocannon in a child process of its own, the same one for every target',
    );
    notes.push(
      figures.some((f) => f.figure.includes('CPU a request'))
        ? `api: CPU a request at c=${CPU_AT} from /proc (utime + stime): each serving process (every thread; for tollgate serve its event loop, the decision log's writer and its checkpointer), its event loop alone, the load generator's; and how long the event loop was runnable but waiting for a core (schedstat)`
        : 'api: CPU a request not measurable here (no /proc)',
    );
    return { figures, notes };
  } finally {
    await generator.stop();
    await cerbos?.stop();
    await bare.stop();
    await layers.stop();
    const exited = new Promise<void>((resolve) => serve.child.once('exit', () => resolve()));
    serve.child.kill('SIGTERM');
    await exited;
    await server.stop();
  }
}

/**
 * What chaining a decision costs (docs/audit.md): its record entry made as the decision log's writer thread makes it
 * on SQLite (record/decision-entry.ts: the body from the row, its canonical form, SHA-256), timed alone; and that time
 * as a share of a second of that thread at the decide rate measured above (c=16). While something listens for entries
 * as they are made (serve --audit-log) the same work is done on the event loop instead.
 */
function chainFigures(decidedPerSecond: number[]): Figure[] {
  const writer = 'bench-writer';
  const row = {
    call_id: '01a2414d-31a4-79e6-a661-9ff28365ea03',
    agent: 'support-bot',
    tool: 'issue_refund',
    action: 'refund.issue',
    amount: '50',
    currency: 'USD',
    decision: 'allow',
    rule: 'small-refunds',
    code: null,
    versions: '{"policies/refunds.policy.json":3}',
    arguments: '{"amount":"50"}',
    arguments_digest: 'a'.repeat(64),
    session: null,
    created_at: '2026-12-04T10:00:00.000Z',
    via: 'http' as const,
  };
  let head = { seq: 0, hash: GENESIS };
  const { batchMicros } = measureStream(20_000, (i) => {
    head = placeOf(decisionEntryValues(writer, head, { ...row, call_id: `${row.call_id}${i}` }));
  });
  const micros = median(batchMicros);
  return [
    figureOf('api', "api record: one decision's chain entry (body, RFC 8785 form, SHA-256)", 'µs', batchMicros),
    figureOf(
      'api',
      'api record: chain entries as a share of the writer thread at the c=16 decide rate',
      '%',
      decidedPerSecond.map((perSecond) => (micros * perSecond) / 10_000),
      'µs per entry × decisions per second',
    ),
  ];
}
