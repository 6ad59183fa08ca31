// The record on PostgreSQL (docs/audit.md): this node's writer, whose entries are written in the transaction (or the
// one statement) of the rows they state. A node writes its chain one write at a time (`chained`, a lane of its own):
// each write appends its entries tentatively and, if it fails, takes them back before the next write appends, so the
// chain written has no gap. Other nodes are other writers and never wait on this one.
import { inTransaction } from '@tollgate/store';
import type pg from 'pg';
import { placeholders, type Queryable, rowsOf } from '../state/postgres-query.ts';
import { POSTGRES_MARK } from '../state/statement.ts';
import { type ChainEntry, type ChainHead, type Checkpoint, GENESIS } from './chain.ts';
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

/** Appends one entry to the writer's chain (tentatively, until the write that holds it commits). */
/** The body an object, or its canonical text (entries.ts writes a decision's in one pass). */
export type AppendEntry = (kind: string, at: string, ref: string | null, body: ChainEntry['body'] | string) => EntryRow;

/** The statement writing `count` entries at once. */
export function insertEntriesSql(count: number, from = 1): string {
  const rows = Array.from({ length: count }, (_, i) => `(${placeholders(ENTRY_COLUMNS.length, from + i * ENTRY_COLUMNS.length)})`);
  return `INSERT INTO record_entries (${ENTRY_COLUMNS.join(', ')}) VALUES ${rows.join(', ')}`;
}

/** Writes entries on `on` (inside the caller's transaction). */
export async function insertEntries(on: Queryable, rows: readonly EntryRow[]): Promise<void> {
  if (rows.length === 0) return;
  await rowsOf(on, insertEntriesSql(rows.length), rows.flatMap(entryValues));
}

export class PostgresRecord {
  readonly writer = new RecordWriter();
  private registered: Promise<void> | undefined;
  /** Set when a write failed: whether it was written is not known until the chain's head is read back. */
  private unsure = false;
  private lane: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly pool: pg.Pool) {}

  /**
   * Runs `work` alone among this writer's writes: it appends the entries its change states and writes them with the
   * change, in one transaction or statement of its own. If it fails, its entries are taken back; if it succeeds they
   * are announced (the audit log's stream).
   */
  chained<T>(work: (append: AppendEntry) => Promise<T>): Promise<T> {
    const run = async (): Promise<T> => {
      await this.register();
      if (this.unsure) await this.resync();
      const mark = this.writer.position;
      const appended: EntryRow[] = [];
      const append: AppendEntry = (kind, at, ref, body) => {
        const row = this.writer.append(kind, at, ref, body);
        appended.push(row);
        return row;
      };
      try {
        const result = await work(append);
        this.writer.announce(appended);
        if (this.writer.unchecked >= CHECKPOINT_ENTRIES) setImmediate(() => void this.checkpointQuietly());
        return result;
      } catch (err) {
        this.writer.rewind(mark);
        // A write whose answer was lost (a connection cut as it committed) may have been written after all: the next
        // write reads where the chain stands before it appends, so it neither repeats a place nor leaves a gap.
        this.unsure = true;
        throw err;
      }
    };
    const result = this.lane.then(run, run);
    this.lane = result.catch(() => {});
    return result;
  }

  /**
   * Runs `work` alone among this writer's writes, given the chain's head: it writes entries chained from that head
   * itself (the database chains a batch of session calls) and answers them, which the head then follows.
   */
  chainedFrom<T>(work: (head: ChainHead) => Promise<{ result: T; written: EntryRow[] }>): Promise<T> {
    return this.chained(async () => {
      const { result, written } = await work(this.writer.position);
      this.writer.adopt(written);
      this.writer.announce(written);
      return result;
    });
  }

  /** Runs `work` in a transaction of its own, its entries written in it (chained). */
  inChainedTransaction<T>(work: (client: pg.PoolClient, append: AppendEntry) => Promise<T>): Promise<T> {
    return this.chained((append) =>
      inTransaction(this.pool, async (client) => {
        const appended: EntryRow[] = [];
        const result = await work(client, (kind, at, ref, body) => {
          const row = append(kind, at, ref, body);
          appended.push(row);
          return row;
        });
        await insertEntries(client, appended);
        return result;
      }),
    );
  }

  /** Signs and writes a checkpoint of what this writer has written; none when nothing is new. */
  checkpoint(now: Date = new Date()): Promise<Checkpoint | undefined> {
    if (this.registered === undefined) return Promise.resolve(undefined);
    return this.chained(async () => {
      const seen = await this.seen();
      const checkpoint = this.writer.checkpoint(now.toISOString(), seen);
      if (!checkpoint) return undefined;
      await rowsOf(this.pool, 'INSERT INTO record_checkpoints (writer, seq, head, at, seen, signature) VALUES ($1, $2, $3, $4, $5, $6)', [
        checkpoint.writer,
        checkpoint.seq,
        checkpoint.head,
        checkpoint.at,
        JSON.stringify(checkpoint.seen),
        checkpoint.signature,
      ]);
      this.writer.announceCheckpoint(checkpoint);
      return checkpoint;
    });
  }

  /** Signs the last checkpoint: call once every write is done, before the pool ends. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.checkpointQuietly();
  }

  private async seen(): Promise<Checkpoint['seen']> {
    const since = new Date(Date.now() - SEEN_WITHIN_MS).toISOString();
    return seenOf(await rowsOf<SeenRow>(this.pool, seenSql(POSTGRES_MARK), [this.writer.id, since]));
  }

  /** Reads this writer's head as written, and takes it as the chain's. */
  private async resync(): Promise<void> {
    const [last] = await rowsOf<{ seq: number; hash: string }>(
      this.pool,
      'SELECT seq, hash FROM record_entries WHERE writer = $1 ORDER BY seq DESC LIMIT 1',
      [this.writer.id],
    );
    this.writer.rewind(
      last ? { writer: this.writer.id, seq: Number(last.seq), hash: last.hash } : { writer: this.writer.id, seq: 0, hash: GENESIS },
    );
    this.unsure = false;
  }

  private register(): Promise<void> {
    this.registered ??= rowsOf(this.pool, 'INSERT INTO record_writers (writer, public_key, started_at) VALUES ($1, $2, $3)', [
      this.writer.id,
      this.writer.publicKey,
      this.writer.startedAt,
    ]).then(() => {
      if (this.closed) return;
      this.timer = setInterval(() => void this.checkpointQuietly(), CHECKPOINT_MS);
      this.timer.unref();
    });
    // A registration that failed is tried again by the next write.
    this.registered.catch(() => {
      this.registered = undefined;
    });
    return this.registered;
  }

  private async checkpointQuietly(): Promise<void> {
    try {
      await this.checkpoint();
    } catch (err) {
      process.emitWarning(`the record's checkpoint could not be written (${String(err)}); retrying`, 'TollgateWarning');
    }
  }
}
