// The gate's hot path keeps keys, members and loaded agents in memory and batches decision-log writes
// (docs/performance.md, "API gate"). These tests hold it to what it was without: every decision in the log after a
// clean shutdown, each visible as soon as it is answered, a held call's approval committed before the agent hears of
// it, key, role and document changes counting on the next call, and a failing log failing closed.
// All of it is SQLite's: its decision log and writer thread, other connections to tollgate.db, a table renamed away.
// So its servers are on SQLite whatever TOLLGATE_TEST_STATE says (startSqliteServer), and vitest.config.ts leaves
// it out of the postgres project; postgres-*.test.ts and the state contract hold PostgreSQL's to the same.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openContext, type SqliteAppContext } from '../src/server/sqlite-context.ts';
import { openDatabase } from '../src/server/state/db.ts';
import type { DecisionRow } from '../src/server/state/decisions/model.ts';
import { countDecisions, findDecision, insertDecision, SESSION_HISTORY_SQL, sessionHistory } from '../src/server/state/decisions/sqlite.ts';
import { closeDecisionLog, DecisionLog, decisionLogOf } from '../src/server/state/decisions/sqlite-log.ts';
import { hashKey } from '../src/server/state/members/credentials.ts';
import { type LooseJson, REPO_ROOT, spawnServer, startSqliteServer, type TestServer } from './server-harness.ts';

const CALLS = '/v1/agents/support-bot/calls';
/** Amounts that are allowed (50), held (500) and denied (5000) by the refunds policy. */
const AMOUNTS = ['50', '500', '5000'] as const;

/** Sends `total` gate calls, `concurrency` at a time, and returns every answer. */
async function load(
  send: (i: number) => Promise<{ status: number; json: LooseJson }>,
  total: number,
  concurrency: number,
): Promise<{ status: number; json: LooseJson }[]> {
  const answers: { status: number; json: LooseJson }[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        answers[i] = await send(i);
      }
    }),
  );
  return answers;
}

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'tollgate-caches-'));
}

describe('the decision log under load', () => {
  it('has every decision after a clean shutdown, and each held call with its approval', async () => {
    const dataDir = tempDir();
    try {
      const s = await startSqliteServer({ dataDir });
      const answers = await load(
        (i) => s.call('POST', CALLS, { key: s.key('agent'), body: { tool: 'issue_refund', arguments: { amount: AMOUNTS[i % 3] } } }),
        300,
        16,
      );
      await s.stop();
      expect(answers.every((a) => a.status === 200)).toBe(true);
      const db = openDatabase(join(dataDir, 'tollgate.db'));
      try {
        expect(countDecisions(db)).toBe(300);
        const ids = db.prepare('SELECT call_id FROM decisions').pluck().all() as string[];
        expect(new Set(ids)).toEqual(new Set(answers.map((a) => a.json.call_id)));
        const held = answers.filter((a) => a.json.decision === 'require_approval');
        expect(held.length).toBe(100);
        expect(db.prepare('SELECT COUNT(*) FROM approvals').pluck().get()).toBe(100);
      } finally {
        db.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('has every decision after SIGTERM to tollgate serve under load', async () => {
    const dataDir = tempDir();
    try {
      const { url, child } = await spawnServer(dataDir);
      const agent = JSON.parse(readFileSync(join(dataDir, 'demo-keys.json'), 'utf8')).agents[0].key as string;
      const answers = await load(
        async (i) => {
          const res = await fetch(url + CALLS, {
            method: 'POST',
            headers: { authorization: `Bearer ${agent}`, 'content-type': 'application/json' },
            body: JSON.stringify({ tool: 'issue_refund', arguments: { amount: AMOUNTS[i % 3] } }),
          });
          return { status: res.status, json: await res.json() };
        },
        200,
        16,
      );
      child.removeAllListeners('exit');
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(answers.every((a) => a.status === 200)).toBe(true);
      const db = openDatabase(join(dataDir, 'tollgate.db'));
      try {
        expect(countDecisions(db)).toBe(200);
      } finally {
        db.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the gate with its caches', () => {
  let s: TestServer<SqliteAppContext>;
  beforeAll(async () => {
    s = await startSqliteServer();
  });
  afterAll(async () => {
    await s.stop();
  });
  const call = (amount: string, key = s.key('agent'), extra: Record<string, unknown> = {}) =>
    s.call('POST', CALLS, { key, body: { tool: 'issue_refund', arguments: { amount }, ...extra } });

  it('shows a decision to GET decisions as soon as it is answered', async () => {
    for (const amount of AMOUNTS) {
      const r = await call(amount);
      const one = await s.call('GET', `/v1/decisions/${r.json.call_id}`, { key: s.key('viewer') });
      expect(one.status).toBe(200);
      expect(one.json).toMatchObject({ call_id: r.json.call_id, decision: r.json.decision });
      const list = await s.call('GET', '/v1/decisions?limit=1', { key: s.key('viewer') });
      expect(list.json.decisions[0].call_id).toBe(r.json.call_id);
    }
  });

  it('commits a held call and its approval before the agent is told it is held', async () => {
    // Another connection sees only what is committed.
    const other = openDatabase(join(s.dataDir, 'tollgate.db'));
    try {
      const answers = await load(
        async (i) => {
          const r = await call(AMOUNTS[i % 2] as string);
          if (r.json.decision === 'require_approval') {
            const approval = other.prepare('SELECT call_id, status FROM approvals WHERE id = ?').get(r.json.approval.id);
            expect(approval).toEqual({ call_id: r.json.call_id, status: 'pending' });
            expect(other.prepare('SELECT decision FROM decisions WHERE call_id = ?').pluck().get(r.json.call_id)).toBe('require_approval');
          }
          return r;
        },
        40,
        8,
      );
      expect(answers.filter((a) => a.json.decision === 'require_approval').length).toBe(20);
    } finally {
      other.close();
    }
  });

  it('refuses a revoked key on the next call, whichever connection revoked it', async () => {
    const key = await s.ctx.state.createKey({ agent: 'support-bot' });
    expect((await call('50', key)).status).toBe(200);
    const other = openDatabase(join(s.dataDir, 'tollgate.db'));
    try {
      other.prepare('DELETE FROM api_keys WHERE hash = ?').run(hashKey(key));
    } finally {
      other.close();
    }
    expect((await call('50', key)).json.error.code).toBe('INVALID_KEY');

    const second = await s.ctx.state.createKey({ agent: 'support-bot' });
    expect((await call('50', second)).status).toBe(200);
    s.ctx.db.prepare("UPDATE api_keys SET agent = 'another-bot' WHERE hash = ?").run(hashKey(second));
    expect((await call('50', second)).json.error.code).toBe('AGENT_MISMATCH');
    s.ctx.db.prepare('DELETE FROM api_keys WHERE hash = ?').run(hashKey(second));
    expect((await call('50', second)).json.error.code).toBe('INVALID_KEY');
    // The demo agent's own key is untouched.
    expect((await call('50')).status).toBe(200);
  });

  it('counts a role change on the next call: who the member is and who may approve', async () => {
    const me = () => s.call('GET', '/v1/me', { key: s.key('approver') });
    expect((await me()).json.role).toBe('approver');
    expect((await call('500')).json.approval.approvers_count).toBe(3);
    const other = openDatabase(join(s.dataDir, 'tollgate.db'));
    try {
      other.prepare("UPDATE members SET role = 'viewer' WHERE name = 'april'").run();
      expect((await me()).json.role).toBe('viewer');
      expect((await call('500')).json.approval.approvers_count).toBe(2);
    } finally {
      other.prepare("UPDATE members SET role = 'approver' WHERE name = 'april'").run();
      other.close();
    }
    expect((await me()).json.role).toBe('approver');
    expect((await call('500')).json.approval.approvers_count).toBe(3);
  });

  it('decides with a document changed in the store, on the next call', async () => {
    const id = 'policies/refunds.policy.json';
    const first = await call('50');
    expect(first.json.decision).toBe('allow');
    const running = await s.ctx.store.get(id);
    const policy = JSON.parse(running?.text ?? '{}');
    // Every refund is held from now on: the auto-approve ceiling goes to zero.
    const stricter = JSON.stringify(policy).replaceAll('"refund-auto"', '"refund-auto-off"');
    expect(stricter).not.toBe(JSON.stringify(policy));
    const saved = await s.ctx.store.save({ id, text: stricter, author: { kind: 'system', label: 'test' }, reason: 'test' });
    const after = await call('50');
    expect(after.json.rule).toBe('refund-auto-off');
    const row = await s.call('GET', `/v1/decisions/${after.json.call_id}`, { key: s.key('viewer') });
    expect(row.json.versions[id]).toBe(saved.sequence);
    await s.ctx.store.activate(id, running?.sequence as number);
    expect((await call('50')).json.rule).toBe('refund-auto');
  });

  it('fails closed while decisions cannot be written, and writes them once it can', async () => {
    const before = countDecisions(s.ctx.db);
    const log = decisionLogOf(s.ctx.db);
    // Earlier tests' decisions written first (a loaded machine may still have some queued): only this test's
    // calls meet the missing table.
    log.flush();
    s.ctx.db.exec('ALTER TABLE decisions RENAME TO decisions_away');
    const originalEmit = process.emitWarning;
    process.emitWarning = () => {};
    try {
      // The first call is queued and answered; its write fails, and the gate then refuses to decide.
      const first = await call('50');
      expect(first.status).toBe(200);
      // Once its write has been tried and failed (a loaded machine may take longer than the flush delay).
      await expect.poll(() => log.failing, { timeout: 10_000 }).toBe(true);
      const refused = await call('50');
      expect(refused.status).toBe(500);
      expect(refused.json.error.code).toBe('INTERNAL');
      expect(log.pending).toBe(1);
    } finally {
      s.ctx.db.exec('ALTER TABLE decisions_away RENAME TO decisions');
      process.emitWarning = originalEmit;
    }
    const ok = await call('50');
    expect(ok.status).toBe(200);
    expect(countDecisions(s.ctx.db)).toBe(before + 2);
  });
});

const ROW: DecisionRow = {
  call_id: 'c-1',
  agent: 'support-bot',
  tool: 'issue_refund',
  action: 'refund.issue',
  amount: '50',
  currency: 'USD',
  decision: 'allow',
  rule: 'refund-auto',
  code: null,
  versions: '{}',
  arguments: '{"amount":"50"}',
  arguments_digest: 'd',
  session: 's-1',
  created_at: new Date().toISOString(),
};

describe('the decision log', () => {
  it('writes what is queued when the context closes, before its tick comes', async () => {
    const dataDir = tempDir();
    try {
      const ctx = await openContext(dataDir, { watch: false });
      decisionLogOf(ctx.db).record(ROW);
      decisionLogOf(ctx.db).record({ ...ROW, call_id: 'c-2' });
      await ctx.close();
      const db = openDatabase(join(dataDir, 'tollgate.db'));
      try {
        expect(countDecisions(db)).toBe(2);
      } finally {
        db.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('shows queued decisions to every read before they are written', async () => {
    const dataDir = tempDir();
    const db = openDatabase(join(dataDir, 'tollgate.db'));
    try {
      const row = ROW;
      const log = decisionLogOf(db);
      log.record(row);
      expect(log.pending).toBe(1);
      expect(findDecision(db, 'c-1')).toMatchObject({ call_id: 'c-1', decision: 'allow' });
      log.record({ ...row, call_id: 'c-2' });
      expect(sessionHistory(db, 'support-bot', 's-1')).toEqual([
        { tool: 'issue_refund', arguments: { amount: '50' } },
        { tool: 'issue_refund', arguments: { amount: '50' } },
      ]);
      log.record({ ...row, call_id: 'c-3' });
      expect(countDecisions(db)).toBe(3);
      expect(log.pending).toBe(0);
    } finally {
      db.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the decision log off the event loop', () => {
  it('gives a session its queued calls without waiting for them to be written', () => {
    const dataDir = tempDir();
    const db = openDatabase(join(dataDir, 'tollgate.db'));
    try {
      const log = decisionLogOf(db);
      log.record(ROW);
      log.record({ ...ROW, call_id: 'c-2', tool: 'lookup_order', arguments: '{"id":"7"}' });
      log.record({ ...ROW, call_id: 'c-3', decision: 'deny' });
      log.record({ ...ROW, call_id: 'c-4', session: 's-other' });
      expect(sessionHistory(db, 'support-bot', 's-1')).toEqual([
        { tool: 'issue_refund', arguments: { amount: '50' } },
        { tool: 'lookup_order', arguments: { id: '7' } },
      ]);
      // Read without a flush: nothing was waited for.
      expect(log.pending).toBe(4);
      log.flush();
      expect(log.pending).toBe(0);
      // Once written, the same history comes from the table, each call once.
      log.record({ ...ROW, call_id: 'c-5' });
      expect(sessionHistory(db, 'support-bot', 's-1').map((h) => h.tool)).toEqual(['issue_refund', 'lookup_order', 'issue_refund']);
    } finally {
      db.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('reads each session call once, and gives the history as a full read of the log would, however calls arrive', () => {
    // Calls queued here, written by this connection's writer, or written by another connection (another
    // process on the same data folder), in any interleaving with the gate's reads.
    const op = fc.oneof(
      fc.record({
        kind: fc.constantFrom('queue' as const, 'other' as const),
        session: fc.constantFrom('s-1', 's-2'),
        decision: fc.constantFrom('allow', 'allow', 'deny'),
        tool: fc.constantFrom('issue_refund', 'lookup_order'),
        back: fc.integer({ min: 0, max: 6 }),
      }),
      fc.constant({ kind: 'flush' as const }),
      fc.record({ kind: fc.constant('read' as const), session: fc.constantFrom('s-1', 's-2') }),
    );
    const dataDir = tempDir();
    const db = openDatabase(join(dataDir, 'tollgate.db'));
    const other = openDatabase(join(dataDir, 'tollgate.db'));
    const log = decisionLogOf(db);
    let run = 0;
    let n = 0;
    try {
      fc.assert(
        fc.property(fc.array(op, { maxLength: 24 }), (ops) => {
          // Each run is an agent of its own, so runs share the database and nothing else.
          const agent = `agent-${++run}`;
          const full = (session: string) => {
            const rows = other.prepare(SESSION_HISTORY_SQL).all(agent, session) as { call_id: string; tool: string; arguments: string }[];
            const written = new Set(rows.map((r) => r.call_id));
            const queued = log.unwritten().filter((r) => r.agent === agent && r.session === session && r.decision === 'allow');
            return [...rows, ...queued.filter((r) => !written.has(r.call_id))].map((r) => ({
              tool: r.tool,
              arguments: JSON.parse(r.arguments as string),
            }));
          };
          const start = n;
          for (const o of [...ops, { kind: 'read' as const, session: 's-1' }, { kind: 'read' as const, session: 's-2' }]) {
            if (o.kind === 'flush') log.flush();
            else if (o.kind === 'read') expect(sessionHistory(db, agent, o.session)).toEqual(full(o.session));
            else {
              n++;
              // Another process's call may have been decided a little before calls written already.
              const seconds = n - start - (o.kind === 'other' ? o.back : 0);
              const at = new Date(Date.parse('2026-12-01T00:00:00Z') + seconds * 1000).toISOString();
              const row = {
                ...ROW,
                agent,
                call_id: `c-${n}`,
                session: o.session,
                decision: o.decision,
                tool: o.tool,
                arguments: `{"n":${n}}`,
                created_at: at,
              };
              if (o.kind === 'queue') log.record(row);
              else insertDecision(other, row);
            }
          }
        }),
        { numRuns: 300 },
      );
    } finally {
      db.close();
      other.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('writes on the main thread when the writer thread cannot open the database, and says so', async () => {
    const dataDir = tempDir();
    const db = openDatabase(join(dataDir, 'tollgate.db'));
    const originalEmit = process.emitWarning;
    const warnings: string[] = [];
    process.emitWarning = ((w: string | Error) => warnings.push(String(w))) as typeof process.emitWarning;
    try {
      const log = new DecisionLog(db, { writerPath: join(dataDir, 'no-such-folder', 'tollgate.db') });
      log.record(ROW);
      log.record({ ...ROW, call_id: 'c-2' });
      log.flush();
      expect(log.pending).toBe(0);
      expect(db.prepare('SELECT call_id FROM decisions ORDER BY call_id').all()).toEqual([{ call_id: 'c-1' }, { call_id: 'c-2' }]);
      // Later decisions are written here too.
      log.record({ ...ROW, call_id: 'c-3' });
      log.flush();
      expect(db.prepare('SELECT count(*) AS n FROM decisions').get()).toEqual({ n: 3 });
      await vi.waitFor(() => expect(warnings.join('\n')).toContain('directory does not exist'), { timeout: 5000 });
    } finally {
      process.emitWarning = originalEmit;
      db.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('waits for the writer thread when it falls behind, so unwritten decisions never pile up', async () => {
    const dataDir = tempDir();
    const path = join(dataDir, 'tollgate.db');
    const db = openDatabase(path);
    // Another process holds the database's write lock for a second: the writer thread waits on it (a slow disk).
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const db = new (require('better-sqlite3'))(${JSON.stringify(path)}); db.exec('BEGIN IMMEDIATE'); console.log('locked'); setTimeout(() => { db.exec('COMMIT'); db.close(); }, 1000);`,
      ],
      { cwd: join(REPO_ROOT, 'apps/api'), stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await new Promise<void>((resolve, reject) => {
        holder.stdout?.on('data', (chunk: Buffer) => chunk.toString().includes('locked') && resolve());
        holder.once('exit', (code) => reject(new Error(`the lock holder exited (${code})`)));
      });
      const log = decisionLogOf(db);
      let most = 0;
      for (let batch = 0; batch < 8; batch++) {
        for (let i = 0; i < 256; i++) log.record({ ...ROW, call_id: `slow-${batch}-${i}` });
        await new Promise((resolve) => setImmediate(resolve));
        most = Math.max(most, log.pending);
      }
      // Four batches may wait on the writer (sqlite-log.ts), and the one just queued; never the eight.
      expect(most).toBeLessThanOrEqual(5 * 256);
      expect(countDecisions(db)).toBe(8 * 256);
    } finally {
      holder.kill();
      // The log first: past 2,000 rows it started a WAL checkpointer, whose thread must not outlive the folder.
      closeDecisionLog(db);
      db.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('writes on the main thread when the database is in memory', () => {
    // The state database's own schema, every migration applied, in memory.
    const db = openDatabase(':memory:');
    try {
      const log = new DecisionLog(db);
      log.record(ROW);
      log.flush();
      expect(db.prepare('SELECT call_id FROM decisions').all()).toEqual([{ call_id: 'c-1' }]);
    } finally {
      db.close();
    }
  });

  it('writes what is queued when the process exits without closing, however far the writer thread got', () => {
    const dataDir = tempDir();
    try {
      const log = new URL('../src/server/state/decisions/sqlite-log.ts', import.meta.url).href;
      const dbModule = new URL('../src/server/state/db.ts', import.meta.url).href;
      const script = `
        const { decisionLogOf } = await import(${JSON.stringify(log)});
        const { openDatabase } = await import(${JSON.stringify(dbModule)});
        const db = openDatabase(${JSON.stringify(join(dataDir, 'tollgate.db'))});
        const row = ${JSON.stringify(ROW)};
        const log = decisionLogOf(db);
        for (let i = 0; i < 300; i++) log.record({ ...row, call_id: 'exit-' + i });
        // Half are sent to the writer thread (a batch is full at 256); the rest are still queued.
        setImmediate(() => process.exit(0));
      `;
      const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        cwd: REPO_ROOT,
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(child.stderr).toBe('');
      expect(child.status).toBe(0);
      const db = openDatabase(join(dataDir, 'tollgate.db'));
      try {
        expect(countDecisions(db)).toBe(300);
      } finally {
        db.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('call ids', () => {
  it('are version 7 UUIDs, ordered by time and unique', async () => {
    const { newCallId } = await import('../src/server/state/decisions/call-id.ts');
    const t = Date.parse('2026-11-30T12:00:00Z');
    const ids = [newCallId(t), newCallId(t), newCallId(t + 1), newCallId(t + 60_000)];
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(4);
    expect(ids.slice(1).every((id, i) => id.slice(0, 13) >= (ids[i] as string).slice(0, 13))).toBe(true);
    expect(ids[0]?.slice(0, 13).replace('-', '')).toBe(t.toString(16).padStart(12, '0'));
  });
});
