// The decision log's writer thread (sqlite-log.ts, log-writer.ts): it writes batches of decision rows on a connection of
// its own, so the gate's event loop never waits on SQLite. Started through worker-bootstrap.mjs
// (typescript-worker.ts), which registers tsx first; what it shares with the log is log-writer-protocol.ts.
//
// Batches are written in order; one that fails stays first and is retried, so nothing behind it is written out
// of order. They are gathered, up to GATHER_BATCHES for at most GATHER_MS, and written together in one transaction
// (log-writer-protocol.ts says why). The shared state says what is written (SLOT.written), what failed, and when the
// connection is gone. A checkpointer thread copies the WAL ahead of this connection's checkpoints (wal-checkpointer.ts).
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { decisionEntryValues, type HeadPlace, placeOf } from '../../record/decision-entry.ts';
import {
  type Batch,
  type FromWriter,
  GATHER_BATCHES,
  GATHER_MS,
  ROW,
  SLOT,
  type ToWriter,
  type WriterData,
} from './log-writer-protocol.ts';
import { rowOfValues } from './row-values.ts';

const RETRY_MS = 100;

if (!parentPort) throw new Error('log-writer.worker.ts runs as a worker thread only');
const port: MessagePort = parentPort;
const data = workerData as WriterData;
const state = new Int32Array(data.shared);
let db: Database.Database;
let insertMany: (group: readonly Batch[]) => Chain | undefined;

/** The chain the thread extends: its writer and head, once the log has handed them over (Batch.heads). */
interface Chain {
  writer: string;
  head: HeadPlace;
}
let chain: Chain | undefined;
const headSeq = new Float64Array(data.head, 0, 1);
const headHash = new Uint8Array(data.head, 8, 64);

/** A batch's entries as the statement's values, in its rows' order, and the chain after them. */
function entriesOf(batch: Batch, from: Chain | undefined): { entries: unknown[]; chain: Chain | undefined } {
  const { modes, heads } = batch;
  let at = from;
  let given = 0;
  let nextHead = 0;
  const entries: unknown[] = [];
  for (let i = 0; i < modes.length; i++) {
    if (nextHead < heads.length && heads[nextHead] === i) {
      at = { writer: heads[nextHead + 1] as string, head: { seq: heads[nextHead + 2] as number, hash: heads[nextHead + 3] as string } };
      nextHead += 4;
    }
    const mode = modes[i];
    if (mode === ROW.unchained) continue;
    let values: unknown[];
    if (mode === ROW.entryGiven) {
      values = batch.entries.slice(given * data.entryWidth, (given + 1) * data.entryWidth);
      given++;
    } else {
      if (!at) throw new Error('a decision to chain came before the chain it follows');
      values = decisionEntryValues(at.writer, at.head, rowOfValues(batch.rows, i * data.rowWidth));
    }
    for (const value of values) entries.push(value);
    at = { writer: values[0] as string, head: placeOf(values) };
  }
  return { entries, chain: at };
}

/** Leaves the head where the log reads it once it has waited for every batch (log-writer.ts, chainHead). */
function publish(at: Chain | undefined): void {
  chain = at;
  if (!at) return;
  headSeq[0] = at.head.seq;
  for (let i = 0; i < 64; i++) headHash[i] = at.head.hash.charCodeAt(i);
}

/** Rows a statement writes at once: a statement's own cost, paid once for them (docs/performance.md, "The api suite"). */
const CHUNK = 16;

/**
 * Writes values `width` at a time with `single` (an INSERT ending in its one VALUES tuple), CHUNK rows a statement
 * while CHUNK are left: the same rows in the same order as one statement each.
 */
function inserter(single: string, width: number): (values: unknown[]) => void {
  const one = db.prepare(single);
  const tuple = `, (${Array.from({ length: width }, () => '?').join(', ')})`;
  const many = db.prepare(single + tuple.repeat(CHUNK - 1));
  return (values) => {
    const rows = values.length / width;
    let i = 0;
    for (; i + CHUNK <= rows; i += CHUNK) many.run(values.slice(i * width, (i + CHUNK) * width));
    for (; i < rows; i++) one.run(values.slice(i * width, (i + 1) * width));
  };
}

try {
  db = new Database(data.path);
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  // A statement of CHUNK rows inside the transaction keeps a statement journal (the pages it changed, to undo it
  // alone), which outgrows SQLite's in-memory spill bound and became a temporary file a statement: kept in memory.
  db.pragma('temp_store = MEMORY');
  const insert = inserter(data.insert, data.rowWidth);
  const insertEntry = inserter(data.insertEntry, data.entryWidth);
  // A batch's rows and their record entries commit together (record/writer.ts): no entry without its row. The
  // chain's head moves only once they have: a failed write is chained again from where it stood.
  insertMany = db.transaction((group: readonly Batch[]) => {
    let at = chain;
    for (const batch of group) {
      insert(batch.rows);
      const made = entriesOf(batch, at);
      insertEntry(made.entries);
      at = made.chain;
    }
    return at;
  });
} catch (err) {
  // Nothing can be written here: say so at once (a reader waiting must not wait out its timeout), and
  // exit; the main thread then writes the decisions itself.
  Atomics.store(state, SLOT.closed, 1);
  Atomics.add(state, SLOT.changes, 1);
  Atomics.notify(state, SLOT.changes);
  throw err;
}

const batches: Batch[] = [];
let retryTimer: NodeJS.Timeout | undefined;
/** Set while batches are held for GATHER_MS (the first's arrival starts it). */
let gatherTimer: NodeJS.Timeout | undefined;
let drainScheduled = false;
/** The most batches one transaction writes (a backlog after a failure is written in groups of this many). */
const MAX_GROUP = 64;

function changed(): void {
  Atomics.add(state, SLOT.changes, 1);
  Atomics.notify(state, SLOT.changes);
}

/** Writes what is held at this turn's end, or at the gather's end unless `now` or GATHER_BATCHES are held. */
function writeSoon(now: boolean): void {
  if (now || batches.length >= GATHER_BATCHES) {
    if (gatherTimer) clearTimeout(gatherTimer);
    gatherTimer = undefined;
    if (!drainScheduled) {
      drainScheduled = true;
      // At the turn's end, so every batch that arrived while the last was written is received first.
      setImmediate(drain);
    }
  } else {
    gatherTimer ??= setTimeout(drain, GATHER_MS);
  }
}

/**
 * Writes every batch held, oldest first, in one transaction (MAX_GROUP at most a transaction): a commit costs mostly
 * the pages it writes, about as much for one batch as for several.
 */
function drain(): void {
  drainScheduled = false;
  if (gatherTimer) clearTimeout(gatherTimer);
  gatherTimer = undefined;
  if (!db.open) return;
  while (batches.length > 0) {
    const group = batches.slice(0, MAX_GROUP);
    try {
      publish(insertMany(group));
    } catch (err) {
      const first = Atomics.load(state, SLOT.failing) === 0;
      Atomics.store(state, SLOT.failing, 1);
      Atomics.add(state, SLOT.failures, 1);
      changed();
      if (first) port.postMessage({ failed: String(err) } satisfies FromWriter);
      retryTimer ??= setTimeout(() => {
        retryTimer = undefined;
        drain();
      }, RETRY_MS);
      return;
    }
    batches.splice(0, group.length);
    let rows = 0;
    for (const batch of group) rows += batch.modes.length;
    Atomics.add(state, SLOT.rows, rows);
    Atomics.store(state, SLOT.failing, 0);
    Atomics.store(state, SLOT.written, (group[group.length - 1] as Batch).seq);
    changed();
  }
}

port.on('message', (message: ToWriter) => {
  if (message.close) {
    if (retryTimer) clearTimeout(retryTimer);
    if (gatherTimer) clearTimeout(gatherTimer);
    db.close();
    Atomics.store(state, SLOT.closed, 1);
    changed();
    port.close();
    return;
  }
  if (message.batch) batches.push(message.batch);
  // A message with no batch asks for a write now (a reader is waiting); a batch that comes while one failed retries
  // it now.
  const now = message.batch === undefined || retryTimer !== undefined;
  if (retryTimer) clearTimeout(retryTimer);
  retryTimer = undefined;
  writeSoon(now);
});
