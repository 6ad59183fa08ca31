// SIGTERM stops `tollgate serve` cleanly and soon (docs/api.md, "Stopping the server"): event streams are
// closed, requests in flight finish, the decision log is written, and the process exits within 5 s even
// with an open event stream and idle keep-alive connections.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnServer } from './server-harness.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Opens an event stream and resolves once its first bytes arrive; the response ends when the server closes it. */
function openStream(url: string, key: string): Promise<{ ended: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/v1/events`, { headers: { authorization: `Bearer ${key}` } }, (res) => {
      const ended = new Promise<void>((done) => {
        res.on('end', done);
        res.on('close', done);
        res.on('error', () => done());
      });
      res.once('data', () => resolve({ ended }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('tollgate serve on SIGTERM', () => {
  it('closes its event streams, keeps every acknowledged decision and exits 0 within 5 s', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-shutdown-'));
    dirs.push(dataDir);
    const { url, child } = await spawnServer(dataDir);
    const keys = JSON.parse(readFileSync(join(dataDir, 'demo-keys.json'), 'utf8'));
    const owner = keys.members.find((m: { role: string }) => m.role === 'owner').key as string;
    const agent = keys.agents.find((a: { name: string }) => a.name === 'support-bot').key as string;
    const stream = await openStream(url, owner);
    // A sheet over 16 KiB is compiled on the compile thread: a used thread must not keep the process alive.
    const rules = Array.from({ length: 900 }, (_, i) => `  - action: act_${i}\n    never: true`).join('\n');
    const compiled = await fetch(`${url}/v1/rule-sheets/compile`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json' },
      body: JSON.stringify({ sheet: `rules:\n${rules}\n` }),
    });
    expect(compiled.status).toBe(200);
    // Decisions acknowledged just before the signal, over keep-alive connections that stay open and idle.
    const acknowledged: string[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${url}/v1/agents/support-bot/calls`, {
        method: 'POST',
        headers: { authorization: `Bearer ${agent}`, 'content-type': 'application/json' },
        body: JSON.stringify({ tool: 'read_order', arguments: { order_id: `o-${i}` } }),
      });
      expect(res.status).toBe(200);
      acknowledged.push(((await res.json()) as { call_id: string }).call_id);
    }
    const exited = new Promise<{ code: number | null; ms: number }>((resolve) => {
      const started = Date.now();
      child.on('exit', (code) => resolve({ code, ms: Date.now() - started }));
    });
    child.kill('SIGTERM');
    const result = await Promise.race([exited, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 8_000))]);
    if (result === 'timeout') child.kill('SIGKILL');
    expect(result).not.toBe('timeout');
    if (result === 'timeout') return;
    expect(result.code).toBe(0);
    expect(result.ms).toBeLessThan(5_000);
    await stream.ended;
    const db = new Database(join(dataDir, 'tollgate.db'), { readonly: true });
    try {
      const logged = new Set((db.prepare('SELECT call_id FROM decisions').all() as { call_id: string }[]).map((r) => r.call_id));
      for (const id of acknowledged) expect(logged.has(id), id).toBe(true);
    } finally {
      db.close();
    }
  }, 60_000);
});
