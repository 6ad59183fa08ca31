// `tollgate serve --audit-log FILE` (apps/api/src/cli/audit-log.ts; docs/audit.md, "The audit log stream"): a real
// server on a demo data folder streams its writer, each entry as it is chained and each checkpoint as it is signed;
// each decision appears once with its call id and decision, no argument value is in the file, a checkpoint closes it
// after SIGTERM, and the writer's key is the one `tollgate audit export` reads from the database. A path that cannot
// be opened fails the start, naming it. While the stream is too far behind, lines are dropped and counted.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { AuditLog } from '../src/cli/audit-log.ts';
import { runCli, withEnv } from './cli-harness.ts';
import { type LooseJson, readDemoKeys, serverAt, spawnServer } from './server-harness.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-audit-log-'));
  dirs.push(dir);
  return dir;
}

/** Argument values no line may hold: an order id and a note, sent with every call. */
const SECRET_ORDER = 'ORD-7f3c9e-never-logged';
const SECRET_NOTE = 'note-b41d-never-logged';

describe('tollgate serve --audit-log FILE', () => {
  it('streams the writer, every decision once, and a closing checkpoint; the key matches the export', async () => {
    const dataDir = tempDir();
    const logFile = join(tempDir(), 'audit.jsonl');
    const { url, child } = await spawnServer(dataDir, ['--audit-log', logFile]);
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const server = serverAt(url, readDemoKeys(dataDir));
    const decided: { call_id: string; decision: string }[] = [];
    // Allowed (50), held (500) and denied (5000) by the demo's refunds policy.
    for (const amount of ['50', '500', '5000', '50']) {
      const r = await server.call('POST', '/v1/agents/support-bot/calls', {
        key: server.key('agent'),
        body: { tool: 'issue_refund', arguments: { amount, order: SECRET_ORDER, note: SECRET_NOTE } },
      });
      expect(r.status, r.text).toBe(200);
      decided.push({ call_id: r.json.call_id, decision: r.json.decision });
    }
    expect(new Set(decided.map((d) => d.decision)).size).toBe(3);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);

    const text = readFileSync(logFile, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    expect(text).not.toContain(SECRET_ORDER);
    expect(text).not.toContain(SECRET_NOTE);
    const lines = text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as LooseJson);
    const [first] = lines;
    expect(first).toMatchObject({ type: 'writer', writer: expect.any(String), started_at: expect.any(String) });
    expect(first.public_key).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(lines.filter((l) => l.type === 'writer')).toHaveLength(1);

    const entries = lines.filter((l) => l.type === 'entry');
    // One writer's chain, in order from 1 with no gap, each entry linked to the one before.
    expect(entries.map((e) => e.seq)).toEqual(entries.map((_, i) => i + 1));
    for (const [i, e] of entries.entries()) {
      expect(e.writer).toBe(first.writer);
      if (i > 0) expect(e.prev).toBe(entries[i - 1].hash);
    }
    for (const { call_id, decision } of decided) {
      const ofCall = entries.filter((e) => e.kind === 'decision' && e.call_id === call_id);
      expect(ofCall, call_id).toHaveLength(1);
      expect(ofCall[0]).toMatchObject({ ref: call_id, decision, agent: 'support-bot', tool: 'issue_refund' });
      expect(ofCall[0].body).toMatchObject({ call_id, decision });
      expect(ofCall[0].arguments_digest).toBe(ofCall[0].body.arguments_digest);
    }
    // The held call's approval request is chained with it; the demo's members and keys before any of them.
    expect(entries.some((e) => e.kind === 'approval.requested')).toBe(true);
    const firstDecision = entries.findIndex((e) => e.kind === 'decision');
    expect(entries.slice(0, firstDecision).some((e) => e.kind === 'identity.changed')).toBe(true);

    const last = lines[lines.length - 1];
    expect(last).toMatchObject({ type: 'checkpoint', writer: first.writer, seq: entries.length, head: entries.at(-1).hash });
    expect(last.signature).toEqual(expect.any(String));

    const exported = await runCli('audit', 'export', '--data', dataDir);
    expect(exported.code, exported.stderr).toBe(0);
    const writers = exported.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as LooseJson)
      .filter((l) => l.type === 'writer' && l.writer === first.writer);
    expect(writers).toHaveLength(1);
    expect(writers[0].public_key).toBe(first.public_key);
  }, 30_000);

  it('fails the start, naming the path, when the audit log cannot be opened', async () => {
    const dataDir = tempDir();
    const folder = tempDir();
    const run = await runCli('serve', '--data', dataDir, '--port', '0', '--audit-log', folder);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`tollgate serve: cannot open the audit log ${folder}: EISDIR\n`);
    const fromEnv = await withEnv('TOLLGATE_AUDIT_LOG', folder, () => runCli('serve', '--data', dataDir, '--port', '0'));
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toContain(`cannot open the audit log ${folder}`);
  });
});

describe('the audit log behind its writer', () => {
  it('drops lines past the bound, never waiting, and says how many once it catches up', async () => {
    const written: string[] = [];
    const held: (() => void)[] = [];
    // A destination that takes each chunk only when released: the stream falls behind.
    const out = new Writable({
      highWaterMark: 16,
      write(chunk: Buffer, _encoding, callback) {
        written.push(chunk.toString());
        held.push(callback);
      },
    });
    const said: string[] = [];
    const log = new AuditLog(out, true, 'test.jsonl', { write: (s: string) => said.push(s) }, 64);
    for (let i = 0; i < 10; i++) log.write(JSON.stringify({ line: i, pad: 'x'.repeat(20) }));
    // The first lines were handed over until more than 64 bytes waited; the rest were dropped at once.
    const release = async () => {
      while (held.length > 0) {
        (held.shift() as () => void)();
        await new Promise((r) => setImmediate(r));
      }
    };
    await release();
    const lines = written
      .join('')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    const kept = lines.findIndex((l) => l.type === 'dropped');
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(10);
    expect(lines.slice(0, kept).map((l) => l.line)).toEqual([...Array(kept).keys()]);
    expect(lines[kept]).toMatchObject({ type: 'dropped', lines: 10 - kept });
    expect(lines).toHaveLength(kept + 1);
    expect(said.join('')).toContain(`dropped ${10 - kept} lines`);
    // Caught up, lines are written again, and closing waits until they are.
    log.write('{"line":10}');
    let done = false;
    const closed = log.close().then(() => {
      done = true;
    });
    await release();
    await closed;
    expect(done).toBe(true);
    expect(written.at(-1)).toBe('{"line":10}\n');
  });
});
