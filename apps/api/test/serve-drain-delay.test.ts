// `tollgate serve --drain-delay` (apps/api/src/cli/drain.ts; docs/api.md, "Stopping the server"): on SIGTERM
// readiness fails at once while calls are still accepted and decided for the delay, then the drain runs and the
// process exits 0; a second signal ends the delay at once. A bad value is a usage error before anything opens.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, withEnv } from './cli-harness.ts';
import { agentKey, readDemoKeys, spawnServer } from './server-harness.ts';

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function started(delaySeconds: string) {
  const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-drain-delay-'));
  dirs.push(dataDir);
  const { url, child } = await spawnServer(dataDir, ['--drain-delay', delaySeconds]);
  children.push(child);
  const agent = agentKey({ keys: readDemoKeys(dataDir) }, 'support-bot');
  const exited = new Promise<{ code: number | null; signal: string | null; at: number }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  return { url, child, agent, exited };
}

/** The exit, or 'timeout' after `ms`. */
const exitWithin = <T>(exited: Promise<T>, ms: number) => Promise.race([exited, sleep(ms).then(() => 'timeout' as const)]);

async function ready(url: string) {
  const res = await fetch(`${url}/v1/health/ready`);
  return { status: res.status, body: (await res.json()) as { status: string; checks: { name: string; ok: boolean }[] } };
}

function gateCall(url: string, key: string) {
  return fetch(`${url}/v1/agents/support-bot/calls`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ tool: 'read_order', arguments: { id: 'o-1' } }),
  });
}

describe('tollgate serve --drain-delay', () => {
  it('fails readiness at once, still decides calls for the delay, then drains and exits 0', async () => {
    // A delay of 5 s, so a loaded machine's slow answers below still fall within it.
    const { url, child, agent, exited } = await started('5');
    expect((await ready(url)).status).toBe(200);
    const signalled = Date.now();
    child.kill('SIGTERM');
    // Once the child has handled the signal.
    await expect.poll(async () => (await ready(url)).status, { timeout: 4_000 }).toBe(503);
    const during = await ready(url);
    expect(during.status).toBe(503);
    expect(during.body.checks).toContainEqual({ name: 'draining', ok: false });
    const call = await gateCall(url, agent);
    expect(call.status).toBe(200);
    expect(((await call.json()) as { decision: string }).decision).toBe('allow');
    // Still within the delay: nothing has stopped yet.
    expect(Date.now() - signalled).toBeLessThan(4_500);
    expect(child.exitCode).toBeNull();
    const exit = await exitWithin(exited, 15_000);
    expect(exit).not.toBe('timeout');
    if (exit === 'timeout') return;
    expect(exit.code).toBe(0);
    expect(exit.at - signalled).toBeGreaterThanOrEqual(4_900);
  }, 40_000);

  it('ends the delay at a second signal, then drains and exits 0', async () => {
    const { url, child, exited } = await started('60');
    child.kill('SIGTERM');
    // Once the child has handled the first signal, so the second is the one that ends the delay.
    await expect.poll(async () => (await ready(url)).status, { timeout: 10_000 }).toBe(503);
    const second = Date.now();
    child.kill('SIGTERM');
    const exit = await exitWithin(exited, 20_000);
    expect(exit).not.toBe('timeout');
    if (exit === 'timeout') return;
    expect([exit.code, exit.signal]).toEqual([0, null]);
    // Far short of the 60 s delay, with room for a loaded machine's drain and close.
    expect(exit.at - second).toBeLessThan(15_000);
  }, 45_000);

  it('refuses a value that is not a whole number of seconds from 0, from the flag or TOLLGATE_DRAIN_DELAY', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-drain-delay-'));
    dirs.push(dataDir);
    const flag = await runCli('serve', '--data', dataDir, '--port', '0', '--drain-delay', '1.5');
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--drain-delay is a whole number of seconds from 0, got 1.5');
    const env = await withEnv('TOLLGATE_DRAIN_DELAY', 'soon', () => runCli('serve', '--data', dataDir, '--port', '0'));
    expect(env.code).toBe(2);
    expect(env.stderr).toContain('--drain-delay is a whole number of seconds from 0, got soon');
  });
});
