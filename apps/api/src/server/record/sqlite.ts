// The record on SQLite (docs/audit.md): the process's one writer of a database, its entries written with the rows
// they state, and its checkpoints. A decision's entry rides with its row through the decision log
// (state/decisions/sqlite-log.ts); every other entry is written here, after the log is flushed (so the chain is
// written in order, with no gap even if the process dies), in the transaction of the change it states.
import type { Db } from '../state/db.ts';
import { type DecisionChain, flushDecisions } from '../state/decisions/sqlite-log.ts';
import { SQLITE_MARK } from '../state/statement.ts';
import type { ChainEntry, Checkpoint } from './chain.ts';
import { decisionBodyText } from './entries.ts';
import {
  CHECKPOINT_ENTRIES,
  CHECKPOINT_MS,
  ENTRY_COLUMNS,
  type EntryRow,
  entryValues,
  RecordWriter,
  SEEN_WITHIN_MS,
  type SeenRow,
  seenOf,
  seenSql,
} from './writer.ts';

const INSERT_ENTRY = `INSERT INTO record_entries (${ENTRY_COLUMNS.join(', ')}) VALUES (${ENTRY_COLUMNS.map(() => '?').join(', ')})`;

/** Appends one entry and writes it in the transaction open (SqliteRecord.around). */
export type AddEntry = (kind: string, at: string, ref: string | null, body: ChainEntry['body']) => void;

/** A database's record as this process writes it. */
export class SqliteRecord {
  readonly writer: RecordWriter;
  private registered = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly insertEntry;

  /** Entries the decision log's writer thread makes while the head is handed to it. */
  private handed = 0;
  private handedAway = false;
  /** Decisions' entries, made by the decision log (state/decisions/sqlite-log.ts, DecisionChain). */
  readonly decisions: DecisionChain;

  constructor(private readonly db: Db) {
    this.writer = new RecordWriter();
    this.insertEntry = db.prepare(INSERT_ENTRY);
    const record = this;
    this.decisions = {
      writer: this.writer.id,
      get madeHere() {
        return record.writer.listening;
      },
      get handed() {
        return record.handedAway;
      },
      hand: () => {
        this.register();
        this.handedAway = true;
        const { seq, hash } = this.writer.position;
        return { seq, hash };
      },
      handedOne: () => {
        this.handed++;
        this.checkpointWhenDue();
      },
      takeBack: (head) => {
        this.writer.rewind({ writer: this.writer.id, seq: head.seq, hash: head.hash });
        this.handedAway = false;
        this.handed = 0;
      },
      entry: (row) => this.entry('decision', row.created_at, row.call_id, decisionBodyText(row)),
    };
  }

  /**
   * The next entry, for a row the decision log writes (it commits them together); the body an object, or its
   * canonical text. Registers the writer first, and signs a checkpoint soon when enough entries have gathered.
   */
  entry(kind: string, at: string, ref: string | null, body: ChainEntry['body'] | string): EntryRow {
    // The decision log takes the head back (flushing) before anything chains here.
    if (this.handedAway) throw new Error("the record's head is with the decision log's writer thread");
    this.register();
    const row = this.writer.append(kind, at, ref, body);
    if (this.writer.listening) this.writer.announce([row]);
    this.checkpointWhenDue();
    return row;
  }

  private checkpointWhenDue(): void {
    if (this.writer.unchecked + this.handed >= CHECKPOINT_ENTRIES) setImmediate(() => this.checkpointQuietly());
  }

  /**
   * Runs `work`, which opens its own transaction and calls `add` inside it for each entry the change states: each is
   * appended and written at once, in that transaction, after every queued decision (flushed first, so the chain is
   * written in order). A failure takes the entries back; entries written are announced once it returns.
   */
  around<T>(work: (add: AddEntry) => T): T {
    flushDecisions(this.db);
    this.register();
    const mark = this.writer.position;
    const written: EntryRow[] = [];
    const add: AddEntry = (kind, at, ref, body) => {
      const row = this.writer.append(kind, at, ref, body);
      this.insertEntry.run(entryValues(row));
      written.push(row);
    };
    try {
      const result = work(add);
      this.writer.announce(written);
      return result;
    } catch (err) {
      this.writer.rewind(mark);
      throw err;
    }
  }

  /** Signs and writes a checkpoint of what is written (the decision log flushed first); none when nothing is new. */
  checkpoint(now: Date = new Date()): Checkpoint | undefined {
    if (!this.registered || !this.db.open) return undefined;
    flushDecisions(this.db);
    const checkpoint = this.writer.checkpoint(now.toISOString(), this.seen());
    if (!checkpoint) return undefined;
    this.db
      .prepare('INSERT INTO record_checkpoints (writer, seq, head, at, seen, signature) VALUES (?, ?, ?, ?, ?, ?)')
      .run(checkpoint.writer, checkpoint.seq, checkpoint.head, checkpoint.at, JSON.stringify(checkpoint.seen), checkpoint.signature);
    this.writer.announceCheckpoint(checkpoint);
    return checkpoint;
  }

  /** Signs the last checkpoint and stops the timer: call before the database closes. */
  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.checkpoint();
  }

  /** The other writers' heads as their newest checkpoints signed them. */
  private seen(): Checkpoint['seen'] {
    const since = new Date(Date.now() - SEEN_WITHIN_MS).toISOString();
    return seenOf(this.db.prepare(seenSql(SQLITE_MARK)).all(this.writer.id, since) as SeenRow[]);
  }

  private register(): void {
    if (this.registered) return;
    this.db
      .prepare('INSERT INTO record_writers (writer, public_key, started_at) VALUES (?, ?, ?)')
      .run(this.writer.id, this.writer.publicKey, this.writer.startedAt);
    this.registered = true;
    this.timer = setInterval(() => this.checkpointQuietly(), CHECKPOINT_MS);
    this.timer.unref();
  }

  private checkpointQuietly(): void {
    try {
      this.checkpoint();
    } catch (err) {
      // The next checkpoint covers these entries too; the chain itself is written with its rows.
      process.emitWarning(`the record's checkpoint could not be written (${String(err)}); retrying`, 'TollgateWarning');
    }
  }
}

const records = new WeakMap<Db, SqliteRecord>();

/** The database's record as this process writes it (one writer a database a process). */
export function sqliteRecordOf(db: Db): SqliteRecord {
  let record = records.get(db);
  if (!record) {
    record = new SqliteRecord(db);
    records.set(db, record);
  }
  return record;
}

/** Signs the database's last checkpoint, if this process wrote to its record: call before closing it. */
export function closeSqliteRecord(db: Db): void {
  records.get(db)?.close();
  records.delete(db);
}
