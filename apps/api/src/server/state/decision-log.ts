// The decision log's writer: decisions are queued in memory and written together, one SQLite transaction
// every FLUSH_AFTER_MS (or every MAX_BATCH decisions, whichever comes first), by a writer thread with its
// own connection (decision-writer.worker.mjs), so the gate's event loop never waits on SQLite (issue 8:
// a commit per call cost more than the decision, and writing on the event loop cost a tenth of its time).
// What stays exact:
// - a held call is written at once, after every decision queued before it, with its approval request in
//   one transaction, before the agent is told it is held (the request must exist to be approved or claimed);
// - every read of decisions flushes first (`flushDecisions`: it waits for the writer), so a decision is
//   visible as soon as its answer has been sent; a session's history reads what is still queued instead;
// - a clean shutdown flushes (`AppContext.close`, and the process's exit as a last resort, writing here
//   whatever the writer has not); a crash can lose the decisions queued (FLUSH_AFTER_MS
//   of them) and at most MAX_UNWRITTEN_BATCHES batches the writer has not finished, never a held one;
// - when a write fails the decisions stay queued and are retried, and the gate answers 500 (fails closed)
//   until they are written.
// An in-memory database, or a writer thread that cannot start, is written on this thread instead.
import { Worker } from 'node:worker_threads';
import type { ApprovalRow } from './approvals.ts';
import { insertApproval } from './approvals.ts';
import type { Db } from './db.ts';
import type { DecisionRow } from './decisions.ts';

const RETRY_MS = 100;
/** How long a decision may wait in the queue; a crash loses at most this much of the log. */
export const FLUSH_AFTER_MS = 2;
/** A batch this large is sent at the next turn rather than waiting out the timer. */
const MAX_BATCH = 256;
/**
 * At most this many batches wait on the writer thread; past it the gate waits for the writer (a slow disk),
 * so what a crash can lose stays a few milliseconds of decisions however far the disk falls behind.
 */
const MAX_UNWRITTEN_BATCHES = 2;
/** How long a read waits for the writer thread before it gives up (SQLite's own busy timeout is 5 s). */
const WAIT_MS = 10_000;

const COLUMNS = [
  'call_id',
  'agent',
  'tool',
  'action',
  'amount',
  'currency',
  'decision',
  'rule',
  'code',
  'versions',
  'arguments',
  'arguments_digest',
  'session',
  'created_at',
] as const satisfies readonly (keyof DecisionRow)[];
const INSERT = `INSERT INTO decisions (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`;
/** Rows the writer thread may have written already are written here without their duplicates. */
const INSERT_MISSING = INSERT.replace('INSERT', 'INSERT OR IGNORE');

/** A row as its statement's values, in COLUMNS order (positional binding, and cheap to post). */
function valuesOf(row: DecisionRow): unknown[] {
  return [
    row.call_id,
    row.agent,
    row.tool,
    row.action,
    row.amount,
    row.currency,
    row.decision,
    row.rule,
    row.code,
    row.versions,
    row.arguments,
    row.arguments_digest,
    row.session,
    row.created_at,
  ];
}

// The writer thread's shared state; see decision-writer.worker.mjs.
const WRITTEN = 0;
const FAILURES = 1;
const FAILING = 2;
const CHANGES = 3;
const CLOSED = 4;

/** Whether batch `a` is at or after batch `b`: sequences are 32-bit and wrap. */
const atOrAfter = (a: number, b: number) => ((a - b) | 0) >= 0;

/** The writer thread and the batches sent to it that it has not yet written. */
class WriterThread {
  private readonly worker: Worker;
  private readonly state: Int32Array;
  private seq = 0;
  private sent: { seq: number; rows: DecisionRow[] }[] = [];
  dead = false;

  constructor(path: string, onFailure: (message: string) => void, onExit: () => void) {
    this.state = new Int32Array(new SharedArrayBuffer(8 * Int32Array.BYTES_PER_ELEMENT));
    this.worker = new Worker(new URL('./decision-writer.worker.mjs', import.meta.url), {
      workerData: { path, insert: INSERT, shared: this.state.buffer },
    });
    this.worker.unref();
    this.worker.on('message', (m: { failed?: string }) => {
      if (m.failed !== undefined) onFailure(m.failed);
    });
    this.worker.on('error', (err) => onFailure(`the writer thread failed: ${String(err)}`));
    this.worker.once('exit', () => {
      this.dead = true;
      onExit();
    });
  }

  get failing(): boolean {
    return Atomics.load(this.state, FAILING) === 1;
  }

  /** Batches sent and not yet written. */
  get behind(): number {
    return (this.seq - Atomics.load(this.state, WRITTEN)) | 0;
  }

  /** Whether the thread is gone (or going): it could not open the database, was closed, or exited. */
  get closed(): boolean {
    return this.dead || Atomics.load(this.state, CLOSED) === 1;
  }

  send(rows: DecisionRow[]): void {
    this.seq = (this.seq + 1) | 0;
    this.sent.push({ seq: this.seq, rows });
    this.worker.postMessage({ batch: { seq: this.seq, rows: rows.map(valuesOf) } });
  }

  /** The rows sent and not yet written, oldest first. */
  unwritten(): DecisionRow[] {
    this.prune();
    return this.sent.flatMap((b) => b.rows);
  }

  private prune(): void {
    const written = Atomics.load(this.state, WRITTEN);
    let i = 0;
    while (i < this.sent.length && atOrAfter(written, (this.sent[i] as { seq: number }).seq)) i++;
    if (i > 0) this.sent = this.sent.slice(i);
  }

  /** Blocks until every batch sent is written; throws when a write fails meanwhile or the writer is silent. */
  waitWritten(timeoutMs = WAIT_MS): void {
    const target = this.seq;
    const failures = Atomics.load(this.state, FAILURES);
    // A batch that failed is retried on the writer's timer; a reader waiting asks for the retry now.
    if (this.failing) this.worker.postMessage({});
    const written = this.waitFor(() => {
      if (atOrAfter(Atomics.load(this.state, WRITTEN), target)) return true;
      if (Atomics.load(this.state, FAILURES) !== failures) throw new Error('the decision log cannot be written');
      if (this.closed) throw new Error('the decision log writer did not answer');
      return false;
    }, timeoutMs);
    if (!written) throw new Error('the decision log writer did not answer');
    this.prune();
  }

  /** Asks the thread to close its connection and waits (briefly) until it has. */
  close(): void {
    if (this.dead) return;
    this.worker.postMessage({ close: true });
    this.waitFor(() => Atomics.load(this.state, CLOSED) === 1, 1000);
    void this.worker.terminate();
  }

  /** Blocks until `done` holds (true) or `timeoutMs` pass (false), waking on each change the thread makes. */
  private waitFor(done: () => boolean, timeoutMs: number): boolean {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const changes = Atomics.load(this.state, CHANGES);
      if (done()) return true;
      const left = deadline - performance.now();
      if (left <= 0) return false;
      Atomics.wait(this.state, CHANGES, changes, left);
    }
  }
}

/** Queued decision rows of one database, written in batches. */
export class DecisionLog {
  private readonly db: Db;
  private queue: DecisionRow[] = [];
  private scheduled = false;
  private failure: unknown;
  /** Set while queued rows may already be written (the writer thread stopped): duplicates are skipped. */
  private recovering = false;
  private writer: WriterThread | undefined;
  private readonly insert: (row: DecisionRow) => void;
  private readonly insertMany: (rows: readonly DecisionRow[], missingOnly: boolean) => void;

  /**
   * @param options.thread whether batches are written by a writer thread (default: yes, unless the database
   *   is in memory); `writerPath` is the file that thread opens (the database's own by default).
   */
  constructor(db: Db, options: { thread?: boolean; writerPath?: string } = {}) {
    this.db = db;
    const insert = db.prepare(INSERT);
    const insertMissing = db.prepare(INSERT_MISSING);
    this.insert = (row) => insert.run(valuesOf(row));
    this.insertMany = db.transaction((rows: readonly DecisionRow[], missingOnly: boolean) => {
      for (const row of rows) (missingOnly ? insertMissing : insert).run(valuesOf(row));
    });
    if ((options.thread ?? true) && !db.memory) {
      try {
        this.writer = new WriterThread(options.writerPath ?? db.name, warn, () => this.writerExited());
      } catch (err) {
        warn(`the decision log's writer thread did not start (${String(err)}); writing on the main thread`);
      }
    }
  }

  /** Decisions queued and not yet written. */
  get pending(): number {
    return this.queue.length + (this.writer?.unwritten().length ?? 0);
  }

  /** Decisions recorded and not yet written, oldest first. */
  unwritten(): DecisionRow[] {
    const sent = this.writer?.unwritten() ?? [];
    return sent.length === 0 ? this.queue : [...sent, ...this.queue];
  }

  /**
   * Queues a decision; it is written with the others of this tick. Throws (and queues nothing) while
   * earlier decisions cannot be written: the gate fails closed rather than decide unrecorded.
   */
  record(row: DecisionRow): void {
    if (this.failure !== undefined || this.writer?.failing) this.flush();
    this.queue.push(row);
    if (this.queue.length >= MAX_BATCH) {
      setImmediate(() => this.flushQuietly());
    } else if (!this.scheduled) {
      this.scheduled = true;
      setTimeout(() => {
        this.scheduled = false;
        this.flushQuietly();
      }, FLUSH_AFTER_MS).unref();
    }
  }

  /** Writes every queued decision, then this one and its approval request in one transaction, now. */
  recordHeld(row: DecisionRow, approval: ApprovalRow): void {
    this.flush();
    this.db.transaction(() => {
      this.insert(row);
      insertApproval(this.db, approval);
    })();
  }

  /** Writes every queued decision now; throws when they cannot be written (they stay queued). */
  flush(): void {
    if (!this.db.open) return;
    const writer = this.writer;
    if (writer) {
      if (!writer.closed) {
        if (this.queue.length > 0) {
          writer.send(this.queue);
          this.queue = [];
        }
        try {
          writer.waitWritten();
          return;
        } catch (err) {
          if (!writer.closed) throw err;
        }
      }
      // The thread is gone: what it did not write is written here.
      this.takeBackFromWriter();
    }
    if (this.queue.length === 0) return;
    try {
      this.insertMany(this.queue, this.recovering);
    } catch (err) {
      this.failure = err;
      throw err;
    }
    this.queue = [];
    this.failure = undefined;
    this.recovering = false;
  }

  /** Flushes, writing here whatever the writer thread cannot; then stops the thread. */
  close(): void {
    if (!this.db.open) return;
    const writer = this.writer;
    if (writer) {
      try {
        this.flush();
      } catch {
        this.writeHere();
      }
      this.writer = undefined;
      writer.close();
    } else {
      this.flush();
    }
  }

  /** Writes every unwritten decision on this thread's connection, skipping those the writer has written. */
  writeHere(): void {
    if (!this.db.open) return;
    const rows = this.unwritten();
    if (rows.length === 0) return;
    this.insertMany(rows, true);
    this.queue = [];
    if (this.writer) this.writer.dead = true;
    this.writer = undefined;
  }

  /** The writer thread stopped unasked: what it had not written is queued again, to be written here. */
  private writerExited(): void {
    if (!this.writer) return;
    this.takeBackFromWriter();
    this.flushQuietly();
  }

  private takeBackFromWriter(): void {
    const writer = this.writer;
    if (!writer) return;
    this.queue = [...writer.unwritten(), ...this.queue];
    this.writer = undefined;
    // It may have written some of them without saying so: those are skipped, not written twice.
    this.recovering = true;
  }

  private flushQuietly(): void {
    if (this.writer && !this.writer.closed) {
      // A batch that fails is retried by the writer thread; these wait behind it.
      if (this.queue.length > 0) {
        this.writer.send(this.queue);
        this.queue = [];
      }
      if (this.writer.behind > MAX_UNWRITTEN_BATCHES) {
        // The writer has fallen behind: wait for it here rather than let unwritten decisions pile up.
        try {
          this.writer.waitWritten();
        } catch {
          // A failing write is retried by the thread and refused to the gate by record(); nothing to add.
        }
      }
      return;
    }
    const failing = this.failure !== undefined;
    try {
      this.flush();
    } catch (err) {
      if (!failing) warn(`${this.queue.length} gate decisions could not be written yet (${String(err)}); retrying`);
      setTimeout(() => this.flushQuietly(), RETRY_MS).unref();
    }
  }
}

function warn(message: string): void {
  process.emitWarning(message, 'TollgateWarning');
}

const logs = new WeakMap<Db, DecisionLog>();
/** Logs with decisions possibly queued, written when the process exits however it exits. */
const open = new Set<DecisionLog>();
let exitHooked = false;

/** The database's one decision log. */
export function decisionLogOf(db: Db): DecisionLog {
  let log = logs.get(db);
  if (!log) {
    log = new DecisionLog(db);
    logs.set(db, log);
    open.add(log);
    if (!exitHooked) {
      exitHooked = true;
      process.on('exit', () => {
        for (const l of open) {
          try {
            l.writeHere();
          } catch {
            // Nothing more can be done at exit; the warning was given when the write first failed.
          }
        }
      });
    }
  }
  return log;
}

/** Writes the database's queued decisions, if any: call before reading decisions. */
export function flushDecisions(db: Db): void {
  logs.get(db)?.flush();
}

/** The database's decisions recorded and not yet written, oldest first (none when it has no log). */
export function unwrittenDecisions(db: Db): readonly DecisionRow[] {
  return logs.get(db)?.unwritten() ?? [];
}

/** Flushes and forgets the database's log: call before closing the database. */
export function closeDecisionLog(db: Db): void {
  const log = logs.get(db);
  if (!log) return;
  log.close();
  open.delete(log);
  logs.delete(db);
}
