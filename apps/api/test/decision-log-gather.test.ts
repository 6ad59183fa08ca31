// The decision log's writer thread gathers batches to write them together (log-writer-protocol.ts): a lone batch is
// still written within moments with no reader asking, a reader's flush finds every decision written, batches sent
// over many turns all arrive in order, and the gather stays within what a crash can lose. The WAL is checkpointed by
// a thread of its own (wal-checkpointer.ts), by rows written, asleep while nothing new is written. A real SQLite
// file, the real threads, and a second connection reading what is committed.
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../src/server/state/db.ts';
import { GATHER_BATCHES } from '../src/server/state/decisions/log-writer-protocol.ts';
import { closeDecisionLog, decisionLogOf, flushDecisions, MAX_UNWRITTEN_BATCHES } from '../src/server/state/decisions/sqlite-log.ts';
import { FEW_ROWS_WAIT_MS, ROWS_A_CHECKPOINT } from '../src/server/state/decisions/wal-checkpoint-due.ts';
import { CHECKPOINTER_AFTER_ROWS } from '../src/server/state/decisions/wal-checkpointer.ts';
import { decisionRow } from './state-contract-backends.ts';

let dir: string;
let path: string;
let db: Db;
let other: Database.Database;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tollgate-gather-'));
  path = join(dir, 'tollgate.db');
  db = openDatabase(path);
  other = new Database(path, { readonly: true });
});

afterEach(() => {
  closeDecisionLog(db);
  db.close();
  other.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Queues `n` decisions on the database's log in this turn; their call ids, in order. */
function record(n: number): string[] {
  const log = decisionLogOf(db);
  return Array.from({ length: n }, () => {
    const r = decisionRow();
    log.record(r);
    return r.call_id;
  });
}

/** The call ids committed, in the order written, as another connection reads them. */
function committed(): string[] {
  return other.prepare('SELECT call_id FROM decisions ORDER BY rowid').pluck().all() as string[];
}

const turn = () => new Promise((resolve) => setTimeout(resolve, 3));

/** The rows in the database file alone, without its WAL: what checkpoints have copied into it (-1: not yet readable). */
function rowsInFile(): number {
  const copy = join(dir, 'copy.db');
  copyFileSync(path, copy);
  const read = new Database(copy);
  try {
    // Before the first checkpoint even the tables are only in the WAL.
    const tables = read.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'decisions'").pluck().get();
    return tables === 0 ? -1 : (read.prepare('SELECT count(*) FROM decisions').pluck().get() as number);
  } catch {
    // A copy taken while a checkpoint was writing the file: read again.
    return -1;
  } finally {
    read.close();
    rmSync(copy, { force: true });
    rmSync(`${copy}-wal`, { force: true });
    rmSync(`${copy}-shm`, { force: true });
  }
}

/**
 * Enough decisions for the log to start its checkpointer, in turns as the gate sends them (a few hundred pages of
 * WAL), all written: their call ids.
 */
async function startCheckpointer(): Promise<string[]> {
  const ids: string[] = [];
  while (ids.length < CHECKPOINTER_AFTER_ROWS + 100) {
    ids.push(...record(100));
    await turn();
  }
  flushDecisions(db);
  return ids;
}

/** Waits (up to 5 s) until the database file itself holds `rows` decisions. */
async function copiedIntoFile(rows: number): Promise<void> {
  const deadline = Date.now() + 5000;
  while (rowsInFile() !== rows && Date.now() < deadline) await turn();
}

/** Each thread of this process (Linux's /proc) and how many times it has gone to sleep of its own accord. */
function sleepsByThread(): Map<string, number> {
  const sleeps = new Map<string, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const status = readFileSync(`/proc/self/task/${tid}/status`, 'utf8');
      sleeps.set(tid, Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1]));
    } catch {
      // A thread that ended between the listing and the read.
    }
  }
  return sleeps;
}

describe('the decision log writer gathers batches', () => {
  it('stays within what a crash can lose: it writes before the log would wait for it', () => {
    expect(GATHER_BATCHES).toBeGreaterThan(0);
    expect(GATHER_BATCHES).toBeLessThanOrEqual(MAX_UNWRITTEN_BATCHES);
  });

  it('writes a lone batch within moments, with no reader asking', async () => {
    const lone = record(1);
    const deadline = Date.now() + 5000;
    while (committed().length === 0 && Date.now() < deadline) await turn();
    expect(committed()).toEqual(lone);
    expect(decisionLogOf(db).pending).toBe(0);
  });

  it('has written every decision, in every batch held, once a reader flushes', async () => {
    const ids: string[] = [];
    // Fewer batches than the thread gathers, so they are held when the reader comes.
    for (let b = 0; b < GATHER_BATCHES - 1 || b === 0; b++) {
      ids.push(...record(5));
      await turn();
    }
    flushDecisions(db);
    expect(committed()).toEqual(ids);
    expect(decisionLogOf(db).pending).toBe(0);
  });

  it('writes decisions sent over many turns, in order, each once', async () => {
    const ids: string[] = [];
    for (let t = 0; t < 40; t++) {
      ids.push(...record(1 + (t % 7)));
      if (t % 3 === 0) await turn();
      else await new Promise((resolve) => setImmediate(resolve));
    }
    flushDecisions(db);
    expect(committed()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("has the writes copied into the database file by the checkpointer, short of SQLite's own threshold", async () => {
    const ids = await startCheckpointer();
    // And a few more in a commit of their own, short of SQLite's threshold: no connection of the log checkpoints them.
    ids.push(...record(20));
    flushDecisions(db);
    await copiedIntoFile(ids.length);
    expect(rowsInFile()).toBe(ids.length);
  });

  it('checkpoints a log written a few rows at a time at most about every FEW_ROWS_WAIT_MS, copying every row', async () => {
    const ids = await startCheckpointer();
    await copiedIntoFile(ids.length);
    // Then a row every few milliseconds, as sequential calls come: each checkpoint writes the database file (the WAL
    // takes every commit), so each change of its modification time is one. Fewer than ROWS_A_CHECKPOINT rows come in
    // FEW_ROWS_WAIT_MS, so no more than one checkpoint a wait; looking every tick, it would be one every few ms.
    expect((1000 / 5) * (FEW_ROWS_WAIT_MS / 1000)).toBeLessThan(ROWS_A_CHECKPOINT);
    const modified = new Set<number>([statSync(path).mtimeMs]);
    const started = performance.now();
    while (performance.now() - started < 1200) {
      ids.push(...record(1));
      await new Promise((resolve) => setTimeout(resolve, 5));
      modified.add(statSync(path).mtimeMs);
    }
    const elapsed = performance.now() - started;
    expect(modified.size - 1).toBeGreaterThan(0);
    expect(modified.size - 1).toBeLessThanOrEqual(Math.ceil(elapsed / FEW_ROWS_WAIT_MS) + 1);
    flushDecisions(db);
    await copiedIntoFile(ids.length);
    expect(rowsInFile()).toBe(ids.length);
  });

  it.runIf(existsSync('/proc/self/task'))('leaves its threads asleep once everything written is copied', async () => {
    const before = new Set(sleepsByThread().keys());
    const ids = await startCheckpointer();
    await copiedIntoFile(ids.length);
    // The log's threads, started since: the writer and the checkpointer (and any other this process started meanwhile).
    const started = () => new Map([...sleepsByThread()].filter(([tid]) => !before.has(tid)));
    const quiet = started();
    expect(quiet.size).toBeGreaterThanOrEqual(2);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    let wakes = 0;
    for (const [tid, sleeps] of started()) wakes += sleeps - (quiet.get(tid) ?? sleeps);
    // Looking every CHECKPOINT_EVERY_MS regardless, the checkpointer alone went to sleep about a hundred times.
    expect(wakes).toBeLessThan(20);
    // And it still copies what comes next.
    ids.push(...record(3));
    flushDecisions(db);
    await copiedIntoFile(ids.length);
    expect(rowsInFile()).toBe(ids.length);
  });

  it('keeps starting the WAL over under steady writes, the checkpointer copying beside the writer', async () => {
    let written = 0;
    // About 20 MB of WAL were it never started over (two pages a decision).
    while (written < 2500 * 8) {
      written += record(250).length;
      await turn();
    }
    flushDecisions(db);
    expect(other.prepare('SELECT count(*) FROM decisions').pluck().get()).toBe(written);
    // SQLite's own bound, 1,000 pages of 4 KiB, with room for the batches a commit adds past it.
    expect(statSync(`${path}-wal`).size).toBeLessThan(8 * 1024 * 1024);
  });
});
