// The decision log's threads once the log has let them go (log-writer.ts, close and stop; wal-checkpointer.ts, close):
// the log wrote or took back everything first, so a failure after that is no one's to hear. A thread slow to start
// (tsx's bootstrap on a busy machine) may open its database only after the data folder was removed; each used to warn
// that it failed. A thread never let go still reports that it cannot open its database. And a log closing starts no
// checkpointer, though the last flush of its close crosses the threshold for one: one started then was never let go.
// Real worker threads, a real missing folder.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/server/state/db.ts';
import { WriterThread } from '../src/server/state/decisions/log-writer.ts';
import { SLOTS } from '../src/server/state/decisions/log-writer-protocol.ts';
import type { DecisionRow } from '../src/server/state/decisions/model.ts';
import { closeDecisionLog, decisionLogOf, flushDecisions } from '../src/server/state/decisions/sqlite-log.ts';
import { CHECKPOINTER_AFTER_ROWS, WalCheckpointer } from '../src/server/state/decisions/wal-checkpointer.ts';
import { decisionRow } from './state-contract-backends.ts';

const STATEMENTS = {
  insert: 'INSERT INTO decisions (id) VALUES (?)',
  insertEntry: 'INSERT INTO record_entries (id) VALUES (?)',
  rowWidth: 1,
  entryWidth: 1,
};

/** A path in a folder that no longer exists. */
function missingPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-writer-'));
  rmSync(dir, { recursive: true, force: true });
  return join(dir, 'tollgate.db');
}

/** Starts a writer thread on `path`; `release` runs at once; resolves with the failures reported by the thread's exit. */
async function failuresOf(path: string, release: (writer: WriterThread) => void): Promise<string[]> {
  const failures: string[] = [];
  let exited!: () => void;
  const exit = new Promise<void>((resolve) => {
    exited = resolve;
  });
  const chains = { given: new WeakMap<DecisionRow, unknown[]>(), chainHere: new WeakSet<DecisionRow>(), handedAt: new WeakMap() };
  const writer = new WriterThread(path, STATEMENTS, chains, (message) => failures.push(message), exited);
  release(writer);
  await exit;
  // An error event comes before the exit event; a turn more for any message still on its way.
  await new Promise((resolve) => setTimeout(resolve, 50));
  return failures;
}

describe('the decision log writer thread once let go', () => {
  it('reports that it cannot open its database while the log still holds it', async () => {
    const failures = await failuresOf(missingPath(), () => {});
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(/the writer thread failed: .*directory does not exist/);
  });

  it('is silent once stopped or closed, though it then finds its folder gone', async () => {
    expect(await failuresOf(missingPath(), (writer) => writer.stop())).toEqual([]);
    expect(await failuresOf(missingPath(), (writer) => writer.close())).toEqual([]);
  });
});

describe('the WAL checkpointer thread once closed', () => {
  const writerState = () => new SharedArrayBuffer(SLOTS * Int32Array.BYTES_PER_ELEMENT);

  it('reports that it cannot open its database while the log still holds it', async () => {
    const warnings: string[] = [];
    new WalCheckpointer(missingPath(), writerState(), (message) => warnings.push(message));
    await expect.poll(() => warnings, { timeout: 10_000 }).toHaveLength(1);
    expect(warnings[0]).toMatch(/the WAL checkpointer failed: .*directory does not exist/);
  });

  it('is silent once closed, though it then finds its folder gone', async () => {
    const warnings: string[] = [];
    const checkpointer = new WalCheckpointer(missingPath(), writerState(), (message) => warnings.push(message));
    checkpointer.close();
    // As long again as the thread above took to report, and more: its error has come by then.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(warnings).toEqual([]);
  });
});

describe('a decision log closing', () => {
  it('starts no checkpointer, though its last flush crosses the threshold for one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tollgate-closing-'));
    const db = openDatabase(join(dir, 'tollgate.db'));
    const log = decisionLogOf(db);
    for (let i = 0; i < CHECKPOINTER_AFTER_ROWS - 10; i++) log.record(decisionRow());
    flushDecisions(db);
    // Queued, not yet sent: the close's own flush sends them, past the threshold.
    for (let i = 0; i < 20; i++) log.record(decisionRow());
    const warnings: string[] = [];
    const heard = (w: Error) => warnings.push(w.message);
    process.on('warning', heard);
    try {
      closeDecisionLog(db);
      db.close();
      rmSync(dir, { recursive: true, force: true });
      // A checkpointer started by that flush would open its database as its thread starts, the folder gone by then.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      expect(warnings.filter((w) => w.includes('checkpointer'))).toEqual([]);
    } finally {
      process.off('warning', heard);
    }
  });
});
