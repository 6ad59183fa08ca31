// How each queued decision's record entry is made (docs/audit.md, "What is chained"; sqlite-log.ts): by the writer
// thread as it writes the row while it runs and nothing listens for entries as they are made, else on the event loop
// as the row is queued. The record's head is handed to the thread with the first row it chains, and taken back (once
// every row sent is written) before any entry is made elsewhere; when the thread is gone, what it did not write is
// chained here from the newest entry written.
import { GENESIS } from '../../record/chain-form.ts';
import { decisionEntryValues, type HeadPlace, placeOf } from '../../record/decision-entry.ts';
import { type EntryRow, entryValues } from '../../record/writer.ts';
import type { RowChains } from './log-writer.ts';
import type { DecisionRow } from './model.ts';

/**
 * The record's side of decisions' entries (record/sqlite.ts, SqliteRecord.decisions): the head it hands the writer
 * thread and takes back, and an entry made on the event loop.
 */
export interface DecisionChain {
  /** The record's writer id. */
  readonly writer: string;
  /** Whether each entry must be made on the event loop as it is (something listens for entries). */
  readonly madeHere: boolean;
  /** Whether the head is with the thread. */
  readonly handed: boolean;
  /** Hands the head to the thread: where it stands. */
  hand(): HeadPlace;
  /** Counts one more entry the thread makes. */
  handedOne(): void;
  /** Takes the head back, where the thread (or the log's recovery) left it. */
  takeBack(head: HeadPlace): void;
  /** A decision's entry made on the event loop (the head not handed). */
  entry(row: DecisionRow): EntryRow;
}

/** The newest entry of a writer written: where its chain stands in the database. */
export const LAST_ENTRY = 'SELECT seq, hash FROM record_entries WHERE writer = ? ORDER BY seq DESC LIMIT 1';
/** Whether a decision's row is written. */
export const WRITTEN = 'SELECT 1 FROM decisions WHERE call_id = ?';

/** Entries made on the event loop for rows the thread was to chain, and where the chain then stands. */
export interface ChainedHere {
  made: ReadonlyMap<DecisionRow, unknown[]>;
  head?: HeadPlace;
}

const NONE: ChainedHere = { made: new Map() };

/** The log's queued rows' chaining. */
export class QueuedChains {
  readonly rows: RowChains = { given: new WeakMap(), chainHere: new WeakSet(), handedAt: new WeakMap() };
  /** The record's chain, once a row came with it. */
  private chain: DecisionChain | undefined;

  /** Whether the head is with the writer thread. */
  get handed(): boolean {
    return this.chain?.handed ?? false;
  }

  /**
   * Marks how `row`'s entry is made: by the thread while it runs (`threadRuns`) and nothing listens, else now, once
   * `flush` (which waits for every row sent to be written) has taken the head back.
   */
  mark(row: DecisionRow, chain: DecisionChain, threadRuns: boolean, flush: () => void): void {
    this.chain = chain;
    if (threadRuns && !chain.madeHere) {
      if (!chain.handed) this.rows.handedAt.set(row, { writer: chain.writer, ...chain.hand() });
      chain.handedOne();
      this.rows.chainHere.add(row);
      return;
    }
    if (chain.handed) flush();
    this.rows.given.set(row, entryValues(chain.entry(row)));
  }

  /** A row's entry as values: made on the event loop, or in `chained`; none for a row the thread is to chain. */
  entryOf(row: DecisionRow, chained: ChainedHere = NONE): unknown[] | undefined {
    return this.rows.given.get(row) ?? chained.made.get(row);
  }

  /**
   * The entries of the rows among `rows` the thread was to chain and did not write, chained from the newest entry
   * written (`last`), and where the chain then stands; only while the head is handed. The thread wrote a prefix of the
   * rows, entries and all (each batch in one transaction, in order), which is skipped.
   */
  chainUnwritten(
    rows: readonly DecisionRow[],
    last: (writer: string) => HeadPlace | undefined,
    isWritten: (row: DecisionRow) => boolean,
  ): ChainedHere {
    const chain = this.chain;
    if (!chain?.handed) return NONE;
    const made = new Map<DecisionRow, unknown[]>();
    let head: HeadPlace = last(chain.writer) ?? { seq: 0, hash: GENESIS };
    let prefix = true;
    for (const row of rows) {
      if (prefix && isWritten(row)) continue;
      prefix = false;
      let entry = this.rows.given.get(row);
      if (!entry && this.rows.chainHere.has(row)) {
        entry = decisionEntryValues(chain.writer, head, row);
        made.set(row, entry);
      }
      if (entry) head = placeOf(entry);
    }
    return { made, head };
  }

  /** Keeps the entries chained on the event loop with their rows, now written, and takes the head back after them. */
  keep(chained: ChainedHere): void {
    for (const [row, entry] of chained.made) {
      this.rows.given.set(row, entry);
      this.rows.chainHere.delete(row);
    }
    if (chained.head) this.chain?.takeBack(chained.head);
  }

  /** Takes the head back where the thread left it (every row sent written). */
  takeBack(head: () => HeadPlace): void {
    if (this.chain?.handed) this.chain.takeBack(head());
  }
}
