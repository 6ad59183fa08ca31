// The decision log's writer: decisions are queued in memory and written together, one SQLite transaction
// every FLUSH_AFTER_MS (or every MAX_BATCH decisions, whichever comes first; issue 8), instead of one
// transaction per call: at concurrency 1 a commit per call cost more than the decision. What stays exact:
// - a held call is written at once, with every decision queued before it and its approval request, in one
//   transaction, before the agent is told it is held (the request must exist to be approved or claimed);
// - every read of decisions flushes first (`flushDecisions`), so a decision is visible as soon as its
//   answer has been sent;
// - a clean shutdown flushes (`AppContext.close`, and the process's exit as a last resort); a crash can
//   lose the decisions of the last FLUSH_AFTER_MS, allowed or denied, never a held one;
// - when a write fails the decisions stay queued and are retried, and the gate answers 500 (fails closed)
//   until they are written.
import type { ApprovalRow } from './approvals.ts';
import { insertApproval } from './approvals.ts';
import type { Db } from './db.ts';
import type { DecisionRow } from './decisions.ts';

const RETRY_MS = 100;
/** How long a decision may wait in the queue; a crash loses at most this much of the log. */
export const FLUSH_AFTER_MS = 2;
/** A batch this large is written at the next turn rather than waiting out the timer. */
const MAX_BATCH = 256;
const INSERT = `INSERT INTO decisions (call_id, agent, tool, action, amount, currency, decision, rule, code, versions, arguments, arguments_digest, session, created_at)
  VALUES (@call_id, @agent, @tool, @action, @amount, @currency, @decision, @rule, @code, @versions, @arguments, @arguments_digest, @session, @created_at)`;

/** Queued decision rows of one database, written in batches. */
export class DecisionLog {
  private readonly db: Db;
  private queue: DecisionRow[] = [];
  private scheduled = false;
  private failure: unknown;
  private readonly insertMany: (rows: readonly DecisionRow[]) => void;

  constructor(db: Db) {
    this.db = db;
    const insert = db.prepare(INSERT);
    this.insertMany = db.transaction((rows: readonly DecisionRow[]) => {
      for (const row of rows) insert.run(row);
    });
  }

  /** Decisions queued and not yet written. */
  get pending(): number {
    return this.queue.length;
  }

  /**
   * Queues a decision; it is written with the others of this tick. Throws (and queues nothing) while
   * earlier decisions cannot be written: the gate fails closed rather than decide unrecorded.
   */
  record(row: DecisionRow): void {
    if (this.failure !== undefined) this.flush();
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

  /** Writes every queued decision, this one and its approval request now, in one transaction. */
  recordHeld(row: DecisionRow, approval: ApprovalRow): void {
    this.db.transaction(() => {
      this.insertMany([...this.queue, row]);
      insertApproval(this.db, approval);
    })();
    // The write is synchronous: nothing was queued meanwhile.
    this.queue = [];
    this.failure = undefined;
  }

  /** Writes every queued decision now; throws when they cannot be written (they stay queued). */
  flush(): void {
    if (this.queue.length === 0 || !this.db.open) return;
    try {
      this.insertMany(this.queue);
    } catch (err) {
      this.failure = err;
      throw err;
    }
    this.queue = [];
    this.failure = undefined;
  }

  private flushQuietly(): void {
    const failing = this.failure !== undefined;
    try {
      this.flush();
    } catch (err) {
      if (!failing) {
        process.emitWarning(`${this.queue.length} gate decisions could not be written yet (${String(err)}); retrying`, 'TollgateWarning');
      }
      setTimeout(() => this.flushQuietly(), RETRY_MS).unref();
    }
  }
}

const logs = new WeakMap<Db, DecisionLog>();
/** Logs with decisions possibly queued, flushed when the process exits however it exits. */
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
            l.flush();
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

/** Flushes and forgets the database's log: call before closing the database. */
export function closeDecisionLog(db: Db): void {
  const log = logs.get(db);
  if (!log) return;
  log.flush();
  open.delete(log);
  logs.delete(db);
}
