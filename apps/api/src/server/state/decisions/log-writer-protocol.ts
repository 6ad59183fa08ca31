// What the decision log (log-writer.ts) and its writer thread (log-writer.worker.ts) share: the thread's start
// data, the messages each way, and the slots of the Int32Array both read, over which the log waits with
// Atomics.wait instead of a message (see sqlite-log.ts for what stays exact).

/** The slots of the shared state. */
export const SLOT = {
  /** The last batch sequence written (sequences are 32-bit and wrap). */
  written: 0,
  /** How many write attempts failed. */
  failures: 1,
  /** 1 while the oldest batch cannot be written. */
  failing: 2,
  /** Bumped (and notified) on every change of the others. */
  changes: 3,
  /** 1 once the thread's connection is closed or could not be opened. */
  closed: 4,
  /** Rows written (32-bit, wrapping): how much the WAL has grown, for the checkpointer (wal-checkpoint-due.ts). */
  rows: 5,
} as const;

/**
 * The thread holds batches until GATHER_BATCHES have come or the first has waited GATHER_MS, and writes them in one
 * transaction: a commit costs mostly the pages it writes (each index's last page, the tables', the header), about as
 * much for one batch of a few rows as for three, and on two cores the thread's time is taken from the gate's
 * (docs/performance.md, "Off the event loop"). A reader never waits for it (the log asks for a write now), and what a
 * crash can lose stays within the log's bound: past MAX_UNWRITTEN_BATCHES (sqlite-log.ts) batches unwritten the gate
 * waits for the writer, so GATHER_BATCHES stays below it.
 */
export const GATHER_BATCHES = 2;
export const GATHER_MS = 4;

/** How many Int32 slots the shared state has (room beyond SLOT's). */
export const SLOTS = 8;

/** The thread's workerData. */
export interface WriterData {
  /** The database file the thread opens. */
  path: string;
  /** The statement writing one row from its values (sqlite-log.ts). */
  insert: string;
  /** The statement writing one record entry from its values (record/writer.ts, entryValues). */
  insertEntry: string;
  /** How many values a row has (model.ts, COLUMNS), and an entry (record/writer.ts, ENTRY_COLUMNS). */
  rowWidth: number;
  entryWidth: number;
  /** The shared state's buffer, SLOTS Int32s. */
  shared: SharedArrayBuffer;
  /** Where the thread leaves its chain's head after each write (HEAD_BYTES: the seq as a Float64, the hash's hex). */
  head: SharedArrayBuffer;
}

/** The head buffer's size: a Float64 seq, then the 64 ASCII hex digits of the hash. */
export const HEAD_BYTES = 8 + 64;

/** How a batch's row is chained (Batch.modes). */
export const ROW = {
  /** No entry (a row recorded without one). */
  unchained: 0,
  /** The thread makes its entry, from its head (record/decision-entry.ts). */
  chainHere: 1,
  /** Its entry came made, the next of the batch's entries. */
  entryGiven: 2,
} as const;

/**
 * A batch of rows and their record entries, numbered in the order sent: each list is its statement's values one
 * row after another (model.ts, valuesOf; record/writer.ts, entryValues), so a batch is cloned as two arrays
 * instead of one a row. A row's entry is made by the thread itself unless something listens for entries as they
 * are made (sqlite-log.ts says why and how the head goes back and forth).
 */
export interface Batch {
  seq: number;
  rows: unknown[];
  entries: unknown[];
  /** Each row's ROW mode. */
  modes: Uint8Array;
  /**
   * Where the thread's head is set before a row (the record's head handed to it after entries were made off the
   * thread), four values each: the row's index, the writer, the seq and the hash.
   */
  heads: unknown[];
}

/** To the thread: a batch to write, or close; a message with neither asks for every batch held to be written now. */
export interface ToWriter {
  batch?: Batch;
  close?: true;
}

/** From the thread: the first failure of a batch, to warn of. */
export interface FromWriter {
  failed: string;
}
