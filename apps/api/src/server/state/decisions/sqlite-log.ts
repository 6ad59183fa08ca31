// The decision log on SQLite: decisions are queued in memory and sent as a batch every FLUSH_AFTER_MS (or every
// MAX_BATCH decisions, whichever comes first; model.ts) to a writer thread with its own connection (log-writer.ts),
// which writes a few batches together in one transaction (log-writer-protocol.ts, GATHER_BATCHES), so the gate's
// event loop never waits on SQLite: a commit per call cost more than the decision, and writing on the event loop
// cost a tenth of its time.
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
// Each decision's record entry (docs/audit.md) rides with its row and commits in the same transaction; as rows are
// never dropped, only retried, the chain written never has a gap. While nothing listens for entries as they are made,
// the writer thread makes them as it writes the rows (its hashing kept off the gate's event loop): the record's head is
// handed to it with the first row it chains, and taken back (once every row sent is written) before any entry is
// made here. When the thread is gone, what it did not write is chained here from the newest entry written.
import type { HeadPlace } from '../../record/decision-entry.ts';
import { ENTRY_COLUMNS, type EntryRow, entryValues } from '../../record/writer.ts';
import type { ApprovalRow } from '../approvals/model.ts';
import { insertApproval } from '../approvals/sqlite.ts';
import type { Db } from '../db.ts';
import { WriterThread } from './log-writer.ts';
import { COLUMNS, type DecisionRow, FLUSH_AFTER_MS, MAX_BATCH, valuesOf } from './model.ts';
import { type ChainedHere, type DecisionChain, LAST_ENTRY, QueuedChains, WRITTEN } from './queued-chains.ts';
import { CHECKPOINTER_AFTER_ROWS, WalCheckpointer } from './wal-checkpointer.ts';

export type { DecisionChain } from './queued-chains.ts';

/** The statement writing one decision row, its values in COLUMNS order (valuesOf). */
const INSERT = `INSERT INTO decisions (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`;
/** Rows the writer thread may have written already are written here without their duplicates. */
const INSERT_MISSING = INSERT.replace('INSERT', 'INSERT OR IGNORE');
/** The statement writing one record entry, its values in ENTRY_COLUMNS order. */
export const INSERT_ENTRY = `INSERT INTO record_entries (${ENTRY_COLUMNS.join(', ')}) VALUES (${ENTRY_COLUMNS.map(() => '?').join(', ')})`;
const INSERT_ENTRY_MISSING = INSERT_ENTRY.replace('INSERT', 'INSERT OR IGNORE');

const RETRY_MS = 100;
/**
 * At most this many batches wait on the writer thread; past it the gate waits for the writer (a slow disk),
 * so what a crash can lose stays a few milliseconds of decisions however far the disk falls behind. Four, not
 * two, since each row carries its record entry: at two the gate waited on a writer that only fell behind for a
 * moment, about a tenth of its throughput on two cores (docs/performance.md, "The record").
 */
export const MAX_UNWRITTEN_BATCHES = 4;

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
  private readonly insertEntry: { run(values: unknown[]): unknown };
  private readonly insertMany: { immediate(rows: readonly DecisionRow[], missingOnly: boolean): ChainedHere };
  private checkpointer: WalCheckpointer | undefined;
  /** The file the checkpointer opens, until it is started; and the rows sent to the writer thread so far. */
  private writerPath: string | undefined;
  private sent = 0;
  /** How each queued row is chained, and the record's chain once a row came with it. */
  private readonly chains = new QueuedChains();

  /**
   * @param options.thread whether batches are written by a writer thread (default: yes, unless the database
   *   is in memory); `writerPath` is the file that thread opens (the database's own by default).
   */
  constructor(db: Db, options: { thread?: boolean; writerPath?: string } = {}) {
    this.db = db;
    const insert = db.prepare(INSERT);
    const insertMissing = db.prepare(INSERT_MISSING);
    const insertEntry = db.prepare(INSERT_ENTRY);
    const insertEntryMissing = db.prepare(INSERT_ENTRY_MISSING);
    this.insertEntry = insertEntry;
    const chains = this.chains;
    this.insert = (row) => {
      insert.run(valuesOf(row));
      const entry = chains.entryOf(row);
      if (entry) insertEntry.run(entry);
    };
    const lastEntry = db.prepare(LAST_ENTRY);
    const written = db.prepare(WRITTEN).pluck();
    // Immediate: the writer thread, if still there, cannot commit between this read of where the chain stands and
    // the rows chained from it.
    this.insertMany = db.transaction((rows: readonly DecisionRow[], missingOnly: boolean) => {
      const chained = chains.chainUnwritten(
        rows,
        (writer) => lastEntry.get(writer) as HeadPlace | undefined,
        (row) => written.get(row.call_id) !== undefined,
      );
      for (const row of rows) {
        (missingOnly ? insertMissing : insert).run(valuesOf(row));
        const entry = chains.entryOf(row, chained);
        if (entry) (missingOnly ? insertEntryMissing : insertEntry).run(entry);
      }
      return chained;
    });
    if ((options.thread ?? true) && !db.memory) {
      try {
        const statements = { insert: INSERT, insertEntry: INSERT_ENTRY, rowWidth: COLUMNS.length, entryWidth: ENTRY_COLUMNS.length };
        this.writer = new WriterThread(options.writerPath ?? db.name, statements, this.chains.rows, warn, () => this.writerExited());
      } catch (err) {
        warn(`the decision log's writer thread did not start (${String(err)}); writing on the main thread`);
      }
      this.writerPath = options.writerPath ?? db.name;
    }
  }

  /** Sends the queue to the writer thread, starting the checkpointer once enough has been sent to need one. */
  private send(writer: WriterThread): void {
    this.sent += this.queue.length;
    writer.send(this.queue);
    this.queue = [];
    if (this.sent >= CHECKPOINTER_AFTER_ROWS && !this.checkpointer && this.writerPath !== undefined) {
      const path = this.writerPath;
      this.writerPath = undefined;
      this.startCheckpointer(path, writer);
    }
  }

  /** Copies the WAL into the database file on a thread of its own, ahead of the writer's checkpoints. */
  private startCheckpointer(path: string, writer: WriterThread): void {
    try {
      this.checkpointer = new WalCheckpointer(path, writer.shared, warn);
    } catch (err) {
      warn(`the WAL checkpointer did not start (${String(err)}); the writer thread checkpoints alone`);
    }
  }

  /** Decisions queued and not yet written. */
  get pending(): number {
    return this.queue.length + (this.writer?.unwritten().length ?? 0);
  }

  /** Whether writes are failing (the gate refuses calls until they succeed): a readiness check (../readiness.ts). */
  get failing(): boolean {
    return this.failure !== undefined || (this.writer?.failing ?? false);
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
  record(row: DecisionRow, chain?: DecisionChain): void {
    if (this.failure !== undefined || this.writer?.failing) this.flush();
    // The entry is made only once the row is sure to be queued, so a refused call takes no place in the chain.
    if (chain) {
      const writer = this.writer;
      this.chains.mark(row, chain, writer !== undefined && !writer.closed, () => this.flush());
    }
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

  /**
   * Writes every queued decision, then this one and its approval request in one transaction, now; `chain` makes
   * their record entries (after the flush, so they follow every entry queued before them) and answers how to take
   * them back if the write fails.
   */
  recordHeld(row: DecisionRow, approval: ApprovalRow, chain?: () => { entries: EntryRow[]; rewind: () => void }): void {
    this.flush();
    const chained = chain?.();
    try {
      this.db.transaction(() => {
        this.insert(row);
        insertApproval(this.db, approval);
        for (const entry of chained?.entries ?? []) this.insertEntry.run(entryValues(entry));
      })();
    } catch (err) {
      chained?.rewind();
      throw err;
    }
  }

  /** Writes every queued decision now; throws when they cannot be written (they stay queued). */
  flush(): void {
    if (!this.db.open) return;
    const writer = this.writer;
    if (writer) {
      if (!writer.closed) {
        if (this.queue.length > 0) this.send(writer);
        try {
          writer.waitWritten();
          this.chains.takeBack(() => writer.chainHead());
          return;
        } catch (err) {
          if (!writer.closed) throw err;
        }
      }
      // The thread is gone: what it did not write is written here.
      this.takeBackFromWriter();
    }
    if (this.queue.length === 0) {
      // The thread wrote all it had and is gone: the head is where its newest entry left it.
      if (this.chains.handed) this.chains.keep(this.insertMany.immediate([], false));
      return;
    }
    try {
      this.chains.keep(this.insertMany.immediate(this.queue, this.recovering));
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
    // No checkpointer starts now: the last flush below may cross its threshold, and one started then would outlive
    // the log (it opens its database as its thread starts, maybe after the folder is gone).
    this.writerPath = undefined;
    this.checkpointer?.close();
    this.checkpointer = undefined;
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
    this.chains.keep(this.insertMany.immediate(rows, true));
    this.queue = [];
    // The thread would only fail on the rows written here, retrying until the process ends.
    this.writer?.stop();
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
      if (this.queue.length > 0) this.send(this.writer);
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
