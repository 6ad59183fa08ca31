// One writer of the record (docs/audit.md): a process's own chain, its head kept in memory, and the Ed25519 key it
// signs its checkpoints with. The key is made when the writer is and never leaves the process: the database holds
// only its public half (record_writers), so whoever can write the database can still not sign as this writer.
// Each process run is a writer of its own (a new id, from 1), so nodes and runs never serialize on each other and
// a restart never has to trust a head it reads back.
import { generateKeyPairSync, type KeyObject, randomUUID } from 'node:crypto';
import { canonicalText } from './canonical-json.ts';
import { type ChainEntry, type ChainHead, type Checkpoint, formWithBody, GENESIS, sha256, signCheckpoint } from './chain.ts';
import { ENTRY_SOURCES } from './entries.ts';

/** A writer's entry as its table keeps it: the chain's fields, and the row it was made from (`ref`), if any. */
export interface EntryRow {
  writer: string;
  seq: number;
  kind: string;
  at: string;
  /** The id of the row the entry states (a decision's call id, an approval's id), which an export reads it from. */
  ref: string | null;
  /** The body as canonical JSON (RFC 8785). */
  body: string;
  prev: string;
  hash: string;
}

/** An entry's values in the record_entries table's column order. */
export const ENTRY_COLUMNS = ['writer', 'seq', 'kind', 'at', 'ref', 'body', 'prev', 'hash'] as const;

/**
 * An entry's values in the record_entries table's column order. A kind stated by a row (entries.ts, ENTRY_SOURCES)
 * keeps no copy of its body: the row is the body, which an export restates, and a copy would double what the gate's
 * writes cost (docs/performance.md).
 */
export function entryValues(row: EntryRow): unknown[] {
  const body = row.kind in ENTRY_SOURCES ? '' : row.body;
  return [row.writer, row.seq, row.kind, row.at, row.ref, body, row.prev, row.hash];
}

/** After this many entries a writer signs a checkpoint at its next chance (and at least every CHECKPOINT_MS). */
export const CHECKPOINT_ENTRIES = 5000;
export const CHECKPOINT_MS = 10_000;

/**
 * The other writers a checkpoint says it has seen: the heads their newest checkpoints signed within the last
 * SEEN_WITHIN_MS (a writer that stopped long ago is bound by the checkpoints that saw it then), at most MAX_SEEN.
 */
export const SEEN_WITHIN_MS = 60 * 60 * 1000;
const MAX_SEEN = 256;

export interface SeenRow {
  writer: string;
  seq: number;
  head: string;
}

/** The statement reading other writers' recent checkpoints, newest first (`mark` the dialect's placeholder). */
export function seenSql(mark: (n: number) => string): string {
  return `SELECT writer, seq, head FROM record_checkpoints WHERE writer <> ${mark(1)} AND at >= ${mark(2)} ORDER BY at DESC LIMIT ${MAX_SEEN * 4}`;
}

/** Each writer's newest head of the rows (newest first), at most MAX_SEEN writers. */
export function seenOf(rows: readonly SeenRow[]): { [writer: string]: { seq: number; head: string } } {
  const seen: { [writer: string]: { seq: number; head: string } } = {};
  let count = 0;
  for (const row of rows) {
    if (row.writer in seen) continue;
    if (count++ === MAX_SEEN) break;
    seen[row.writer] = { seq: Number(row.seq), head: row.head };
  }
  return seen;
}

/** What the audit log hears: each entry as it is written, and each checkpoint as it is signed. */
export type RecordListener = (event: { entry: EntryRow } | { checkpoint: Checkpoint }) => void;

export class RecordWriter {
  readonly id: string;
  readonly publicKey: string;
  readonly startedAt: string;
  private readonly privateKey: KeyObject;
  private head: ChainHead;
  private checkpointed = 0;
  private readonly listeners = new Set<RecordListener>();

  constructor(now: Date = new Date(), id: string = randomUUID()) {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    this.id = id;
    this.privateKey = privateKey;
    this.publicKey = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    this.startedAt = now.toISOString();
    this.head = { writer: id, seq: 0, hash: GENESIS };
  }

  /** Where the chain stands. */
  get position(): ChainHead {
    return this.head;
  }

  /** Entries appended since the last checkpoint. */
  get unchecked(): number {
    return this.head.seq - this.checkpointed;
  }

  /**
   * The next entry of the chain, which the caller writes with its row (in the same transaction wherever it can).
   * The body is read as JSON values only (canonicalize refuses anything else).
   */
  append(kind: string, at: string, ref: string | null, body: ChainEntry['body'] | string): EntryRow {
    // The body's canonical text (given as such where entries.ts writes it in one pass) is hashed within the entry's
    // form and kept as the entry's body.
    const bodyText = typeof body === 'string' ? body : canonicalText(body);
    const { writer, hash: prev } = this.head;
    const seq = this.head.seq + 1;
    const hash = sha256(formWithBody({ writer, seq, kind, at, prev }, bodyText));
    this.head = { writer, seq, hash };
    return { writer, seq, kind, at, ref, body: bodyText, prev, hash };
  }

  /**
   * Takes entries another party chained from this head (the database, for a batch of session calls) as appended:
   * the head follows the last. Each must follow the one before it, from the head.
   */
  adopt(rows: readonly EntryRow[]): void {
    for (const row of rows) {
      if (row.seq !== this.head.seq + 1 || row.prev !== this.head.hash)
        throw new Error(`entry ${row.seq} does not follow the chain's head`);
      this.head = { writer: this.head.writer, seq: row.seq, hash: row.hash };
    }
  }

  /**
   * Puts the head back where `mark` says: a write that failed takes its entries back, so the chain has no gap. Only
   * the one writing may do it, before anything else appends (the stores write a writer's entries one write at a time).
   */
  rewind(mark: ChainHead): void {
    this.head = mark;
  }

  /** A signed checkpoint of the head, with the other writers' heads seen; undefined when nothing is new since the last. */
  checkpoint(at: string, seen: Checkpoint['seen']): Checkpoint | undefined {
    if (this.head.seq === this.checkpointed) return undefined;
    const checkpoint = signCheckpoint(this.head, at, seen, this.privateKey);
    this.checkpointed = this.head.seq;
    return checkpoint;
  }

  /** Calls `listener` with every entry once it is written, or certain to be, and every checkpoint written; answers how to stop. */
  onRecord(listener: RecordListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Whether anything listens for entries (the audit log): a store announces only then. */
  get listening(): boolean {
    return this.listeners.size > 0;
  }

  /** Tells the listeners of entries written (the store calls it once they are, or are queued never to be dropped). */
  announce(rows: readonly EntryRow[]): void {
    if (this.listeners.size === 0) return;
    for (const entry of rows) for (const listener of this.listeners) listener({ entry });
  }

  /** Tells the listeners of a checkpoint written. */
  announceCheckpoint(checkpoint: Checkpoint): void {
    for (const listener of this.listeners) listener({ checkpoint });
  }
}
