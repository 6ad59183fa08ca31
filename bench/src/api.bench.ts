// The api suite: decide throughput and latency over real HTTP on loopback with autocannon, against the
// real server (in process, on a fresh demo data folder) and, for the ratio, a bare Hono route on another
// port. Every run is bounded in time and in requests; the load runs in a worker thread, not the server's.

import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { startServer } from '../../apps/api/test/server-harness.ts';
import type { Figure } from './measure.ts';

const CONCURRENCY = [1, 16, 64] as const;
const SECONDS = 3;
const MAX_REQUESTS = 200_000;

interface Stat {
  average: number;
  p50: number;
  p99: number;
}
interface AutocannonResult {
  requests: Stat;
  latency: Stat;
  non2xx: number;
  errors: number;
  timeouts: number;
  duration: number;
}
type Autocannon = (options: {
  url: string;
  method: 'POST';
  headers: Record<string, string>;
  body: string;
  connections: number;
  duration: number;
  maxOverallRequests: number;
  workers?: number;
}) => Promise<AutocannonResult>;

// autocannon ships no types; it is CommonJS.
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

interface Target {
  name: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

interface Run {
  target: string;
  connections: number;
  perSecond: number;
  p50: number;
  p99: number;
  requests: number;
  failed: number;
}

async function load(target: Target, connections: number, seconds: number): Promise<Run> {
  const result = await autocannon({
    url: target.url,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...target.headers },
    body: target.body,
    connections,
    duration: seconds,
    maxOverallRequests: Math.max(MAX_REQUESTS, connections),
    workers: 1,
  });
  return {
    target: target.name,
    connections,
    perSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: Math.round(result.requests.average * result.duration),
    failed: result.non2xx + result.errors + result.timeouts,
  };
}

/** A bare Hono app on loopback that reads the JSON body and answers {status: 'ok'}. */
async function startBare(): Promise<{ url: string; stop(): Promise<void> }> {
  const app = new Hono().post('/', async (c) => {
    await c.req.json();
    return c.json({ status: 'ok' });
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function runApiSuite(): Promise<{ figures: Figure[]; notes: string[] }> {
  const server = await startServer();
  const bare = await startBare();
  const notes: string[] = [];
  try {
    const gateBody = JSON.stringify({ tool: 'issue_refund', arguments: { amount: '50' } });
    const gate: Target = {
      name: 'gate POST /v1/agents/support-bot/calls',
      url: `${server.url}/v1/agents/support-bot/calls`,
      headers: { authorization: `Bearer ${server.key('agent')}` },
      body: gateBody,
    };
    const probe = await server.call('POST', '/v1/agents/support-bot/calls', { key: server.key('agent'), body: JSON.parse(gateBody) });
    let decide = gate;
    if (probe.status !== 200) {
      // The gate route does not answer yet: measure the stateless evaluate route instead, and say so.
      const refunds = (await server.ctx.store.get('policies/refunds.policy.json'))?.text ?? '{}';
      decide = {
        name: 'evaluate POST /v1/policies/evaluate (gate fallback)',
        url: `${server.url}/v1/policies/evaluate`,
        headers: { authorization: `Bearer ${server.key('developer')}` },
        body: JSON.stringify({
          document: JSON.parse(refunds),
          tool: { name: 'issue_refund', action: 'refund.issue', amount: { pointer: '/amount', currency: 'USD' } },
          arguments: { amount: '50' },
        }),
      };
      notes.push(`api: the gate route answered ${probe.status}, so POST /v1/policies/evaluate was measured instead`);
    }
    const bareTarget: Target = { name: 'bare Hono POST /', url: bare.url, headers: {}, body: gateBody };

    // A short warm-up of each, uncounted.
    await load(decide, 16, 1);
    await load(bareTarget, 16, 1);
    const runs: Run[] = [];
    for (const connections of CONCURRENCY) {
      runs.push(await load(decide, connections, SECONDS));
      runs.push(await load(bareTarget, connections, SECONDS));
    }

    const figures: Figure[] = [];
    for (const r of runs) {
      const at = `api ${r.target} c=${r.connections}`;
      figures.push({ suite: 'api', figure: `${at} requests/s`, unit: 'req/s', median: r.perSecond, p95: r.perSecond, runs: 1 });
      figures.push({ suite: 'api', figure: `${at} latency p50`, unit: 'ms', median: r.p50, p95: r.p50, runs: 1 });
      figures.push({ suite: 'api', figure: `${at} latency p99`, unit: 'ms', median: r.p99, p95: r.p99, runs: 1 });
      if (r.failed > 0)
        notes.push(`api: ${r.failed} of ~${r.requests} requests to ${r.target} at c=${r.connections} failed or were not 2xx`);
    }
    for (const connections of CONCURRENCY) {
      const mine = runs.find((r) => r.target === decide.name && r.connections === connections);
      const theirs = runs.find((r) => r.target === bareTarget.name && r.connections === connections);
      if (!mine || !theirs) continue;
      const ratio = mine.perSecond / theirs.perSecond;
      figures.push({ suite: 'api', figure: `api decide/bare ratio c=${connections}`, unit: 'x', median: ratio, p95: ratio, runs: 1 });
      notes.push(
        `api c=${connections}: ${decide.name} ${Math.round(mine.perSecond)} req/s (p50 ${mine.p50} ms, p99 ${mine.p99} ms); ` +
          `bare Hono ${Math.round(theirs.perSecond)} req/s (p50 ${theirs.p50} ms, p99 ${theirs.p99} ms); ratio ${ratio.toFixed(3)}`,
      );
    }
    notes.push(`api: ${SECONDS} s per run (at most ${MAX_REQUESTS} requests), loopback, server in process, autocannon in a worker thread`);
    return { figures, notes };
  } finally {
    await bare.stop();
    await server.stop();
  }
}
