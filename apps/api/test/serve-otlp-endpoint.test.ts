// `tollgate serve --otlp-endpoint URL` (apps/api/src/cli/otlp-tracing.ts; docs/deploy.md, "Metrics and traces"):
// spans go by OTLP/HTTP to URL/v1/traces, the flag winning over OTEL_EXPORTER_OTLP_ENDPOINT; the last batch is sent
// at the stop. A small HTTP server on loopback stands in for the collector. A value that is not an http(s) URL is a
// usage error before anything opens.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tracesUrlOf } from '../src/cli/otlp-tracing.ts';
import { runCli } from './cli-harness.ts';
import { agentKey, readDemoKeys, spawnServer } from './server-harness.ts';

interface Received {
  method: string;
  path: string;
  contentType: string;
  bytes: number;
}

/** A collector on loopback that records every request and answers 200 with an empty body. */
async function collector(): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let bytes = 0;
    req.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    req.on('end', () => {
      received.push({ method: req.method ?? '', path: req.url ?? '', contentType: req.headers['content-type'] ?? '', bytes });
      res.writeHead(200, { 'content-type': req.headers['content-type'] ?? 'application/json' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received, server };
}

const dirs: string[] = [];
const children: ChildProcess[] = [];
const servers: Server[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('tollgate serve --otlp-endpoint', () => {
  it("sends the spans to URL/v1/traces at the stop, not to OTEL_EXPORTER_OTLP_ENDPOINT's collector", async () => {
    const flagged = await collector();
    const env = await collector();
    servers.push(flagged.server, env.server);
    const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-otlp-'));
    dirs.push(dataDir);
    const { url, child } = await spawnServer(dataDir, ['--otlp-endpoint', `${flagged.url}/`], {
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: env.url, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${env.url}/v1/traces` },
    });
    children.push(child);
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const res = await fetch(`${url}/v1/agents/support-bot/calls`, {
      method: 'POST',
      headers: { authorization: `Bearer ${agentKey({ keys: readDemoKeys(dataDir) }, 'support-bot')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ tool: 'read_order', arguments: { id: 'o-1' } }),
    });
    expect(res.status).toBe(200);
    await res.text();
    child.kill('SIGTERM');
    const code = await Promise.race([exited, sleep(10_000).then(() => 'timeout' as const)]);
    expect(code).toBe(0);
    const traces = flagged.received.filter((r) => r.method === 'POST' && r.path === '/v1/traces');
    expect(traces.length).toBeGreaterThan(0);
    for (const r of traces) {
      expect(r.contentType).toMatch(/^application\/(x-protobuf|json)/);
      expect(r.bytes).toBeGreaterThan(0);
    }
    expect(env.received).toEqual([]);
  }, 30_000);

  it('adds /v1/traces to the path of the endpoint', () => {
    expect(tracesUrlOf('http://collector:4318')).toBe('http://collector:4318/v1/traces');
    expect(tracesUrlOf('https://otel.example/base/')).toBe('https://otel.example/base/v1/traces');
  });

  it('refuses a value that is not an http(s) URL', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-otlp-'));
    dirs.push(dataDir);
    for (const value of ['collector:4318', 'ftp://collector', 'not a url']) {
      const run = await runCli('serve', '--data', dataDir, '--port', '0', '--otlp-endpoint', value);
      expect(run.code, value).toBe(2);
      expect(run.stderr, value).toContain(`--otlp-endpoint is an http:// or https:// URL, got ${value}`);
    }
  });
});
