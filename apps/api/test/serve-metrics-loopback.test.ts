// `tollgate serve --metrics-loopback` (observability/metrics-route.ts; docs/deploy.md, "Metrics and traces"):
// GET /metrics answers without a key when the peer is loopback, and only then; a key that is sent is checked as
// ever (unknown 401, a viewer's 403). Without the option a keyless scrape is 401 from loopback too.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isLoopbackAddress } from '../src/server/observability/metrics-route.ts';
import { runCli, withEnv } from './cli-harness.ts';
import { readDemoKeys, serverAt, spawnServer } from './server-harness.ts';

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const c of children) {
    if (c.exitCode !== null || c.signalCode !== null) continue;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGTERM');
    await exited;
  }
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function spawned(args: string[], env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-metrics-loopback-'));
  dirs.push(dataDir);
  const { url, child } = await spawnServer(dataDir, args, { env });
  children.push(child);
  const port = new URL(url).port;
  return { port, server: serverAt(`http://127.0.0.1:${port}`, readDemoKeys(dataDir)) };
}

/** This host's first address that is not loopback, to reach the server from a peer that is not loopback. */
const outward = Object.values(networkInterfaces())
  .flat()
  .find((a) => a !== undefined && !a.internal && a.family === 'IPv4')?.address;

describe('isLoopbackAddress', () => {
  it('is 127.0.0.0/8, ::1 and 127.x.x.x mapped into IPv6, nothing else', () => {
    for (const a of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1', '::FFFF:127.9.9.9']) expect(isLoopbackAddress(a), a).toBe(true);
    for (const a of [undefined, '', '10.0.0.1', '128.0.0.1', '::2', '::ffff:10.0.0.1', 'fe80::1', '1127.0.0.1', '127.0.0.1.5']) {
      expect(isLoopbackAddress(a), String(a)).toBe(false);
    }
  });
});

describe('tollgate serve --metrics-loopback', () => {
  it('answers a keyless scrape over 127.0.0.1, still checks a key that is sent, and needs a key from elsewhere', async () => {
    const { port, server } = await spawned(['--metrics-loopback', '--host', outward === undefined ? '127.0.0.1' : '0.0.0.0']);
    const res = await fetch(`${server.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await res.text()).toMatch(/^# TYPE tollgate_decisions_total counter$/m);
    const unknown = await server.call('GET', '/metrics', { key: 'tg_not-a-key' });
    expect([unknown.status, unknown.json?.error?.code]).toEqual([401, 'INVALID_KEY']);
    const viewer = await server.call('GET', '/metrics', { key: server.key('viewer') });
    expect([viewer.status, viewer.json?.error?.code]).toEqual([403, 'GRANT_REQUIRED']);
    expect((await server.call('GET', '/metrics', { key: server.key('admin') })).status).toBe(200);
    // The same server reached at this host's outward address: the peer is not loopback, so a key is needed.
    if (outward !== undefined) {
      const away = serverAt(`http://${outward}:${port}`, server.keys);
      const keyless = await away.call('GET', '/metrics');
      expect([keyless.status, keyless.json?.error?.code]).toEqual([401, 'MISSING_KEY']);
      expect((await away.call('GET', '/metrics', { key: server.key('admin') })).status).toBe(200);
    }
  }, 30_000);

  it('takes TOLLGATE_METRICS_LOOPBACK=1 as the flag', async () => {
    const { server } = await spawned([], { TOLLGATE_METRICS_LOOPBACK: '1' });
    expect((await fetch(`${server.url}/metrics`)).status).toBe(200);
  }, 30_000);

  it('without the option a keyless scrape is 401 from loopback too', async () => {
    const { server } = await spawned([], { TOLLGATE_METRICS_LOOPBACK: '' });
    const keyless = await server.call('GET', '/metrics');
    expect([keyless.status, keyless.json?.error?.code]).toEqual([401, 'MISSING_KEY']);
  }, 30_000);

  it('refuses a TOLLGATE_METRICS_LOOPBACK that is not 1 or 0 before anything opens', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-metrics-loopback-'));
    dirs.push(dataDir);
    const run = await withEnv('TOLLGATE_METRICS_LOOPBACK', 'yes', () => runCli('serve', '--data', dataDir, '--port', '0'));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('TOLLGATE_METRICS_LOOPBACK is 1 or 0, got yes');
  });
});
