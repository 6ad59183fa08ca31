// A process that dies of an uncaught exception while the decision log's threads are busy (the writer thread writing,
// the WAL checkpointer checkpointing, hundreds of thousands of decisions queued a second): it exits as the exception
// says, and every decision it recorded is written, as docs/api.md promises of an exit however it comes (sqlite-log.ts,
// the exit hook). Real child processes on a real SQLite file, twice, since where each thread stands at the exit is a
// matter of timing; each child is a file of its own, since a worker thread refuses the `--input-type` of `-e`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/server/state/db.ts';
import { countDecisions } from '../src/server/state/decisions/sqlite.ts';
import { CHECKPOINTER_AFTER_ROWS } from '../src/server/state/decisions/wal-checkpointer.ts';
import { REPO_ROOT } from './server-harness.ts';
import { decisionRow } from './state-contract-backends.ts';

/** The row each child records, under call ids of its own. */
const ROW = decisionRow();

/** Children run: each records decisions for a while, then throws with decisions queued and the writer busy. */
const CHILDREN = 2;

/** A child recording decisions, 40 a turn, then throwing after `ms`; it says on stdout how many it recorded. */
function childScript(path: string, ms: number): string {
  const log = new URL('../src/server/state/decisions/sqlite-log.ts', import.meta.url).href;
  const dbModule = new URL('../src/server/state/db.ts', import.meta.url).href;
  return `
    import { writeSync } from 'node:fs';
    const { decisionLogOf } = await import(${JSON.stringify(log)});
    const { openDatabase } = await import(${JSON.stringify(dbModule)});
    const log = decisionLogOf(openDatabase(${JSON.stringify(path)}));
    const row = ${JSON.stringify(ROW)};
    let n = 0;
    const until = Date.now() + ${ms};
    const turn = () => {
      for (let i = 0; i < 40; i++) log.record({ ...row, call_id: 'c-' + n++ });
      if (Date.now() < until) return setImmediate(turn);
      writeSync(1, String(n));
      throw new Error('boom');
    };
    turn();
  `;
}

describe('the decision log at an uncaught exception', () => {
  it('exits as the exception says, with every decision it recorded written', () => {
    for (let k = 0; k < CHILDREN; k++) {
      const dir = mkdtempSync(join(tmpdir(), 'tollgate-exit-'));
      try {
        const path = join(dir, 'tollgate.db');
        const script = join(dir, 'child.mjs');
        // Long enough that the checkpointer has started (CHECKPOINTER_AFTER_ROWS) and the writer is kept busy.
        writeFileSync(script, childScript(path, 800 + 300 * k));
        const child = spawnSync(process.execPath, ['--import', 'tsx', script], {
          cwd: REPO_ROOT,
          encoding: 'utf8',
          timeout: 60_000,
        });
        expect(child.stderr).not.toMatch(/FATAL ERROR/);
        expect(child.signal).toBeNull();
        expect(child.status).toBe(1);
        expect(child.stderr).toMatch(/Error: boom/);
        const recorded = Number(child.stdout);
        expect(recorded).toBeGreaterThan(CHECKPOINTER_AFTER_ROWS);
        const db = openDatabase(path);
        try {
          expect(countDecisions(db)).toBe(recorded);
        } finally {
          db.close();
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }, 120_000);
});
