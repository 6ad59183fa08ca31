// The decision log's writer thread (sqlite-log.ts, log-writer.ts): it writes batches of decision rows on a connection of
// its own, so the gate's event loop never waits on SQLite. Started through worker-bootstrap.mjs
// (typescript-worker.ts), which registers tsx first; what it shares with the log is log-writer-protocol.ts.
//
// Batches are written in order; one that fails stays first and is retried, so nothing behind it is written out
// of order. The shared state says what is written (SLOT.written), what failed, and when the connection is gone.
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { type Batch, type FromWriter, SLOT, type ToWriter, type WriterData } from './log-writer-protocol.ts';

const RETRY_MS = 100;

if (!parentPort) throw new Error('log-writer.worker.ts runs as a worker thread only');
const port: MessagePort = parentPort;
const data = workerData as WriterData;
const state = new Int32Array(data.shared);
let db: Database.Database;
let insertMany: (rows: unknown[], entries: unknown[]) => void;

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
  const insert = inserter(data.insert, data.rowWidth);
  const insertEntry = inserter(data.insertEntry, data.entryWidth);
  // A batch's rows and their record entries commit together (record/writer.ts): no entry without its row.
  insertMany = db.transaction((rows: unknown[], entries: unknown[]) => {
    insert(rows);
    insertEntry(entries);
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

function changed(): void {
  Atomics.add(state, SLOT.changes, 1);
  Atomics.notify(state, SLOT.changes);
}

function drain(): void {
  while (batches.length > 0) {
    const batch = batches[0] as Batch;
    try {
      insertMany(batch.rows, batch.entries);
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
    batches.shift();
    Atomics.store(state, SLOT.failing, 0);
    Atomics.store(state, SLOT.written, batch.seq);
    changed();
  }
}

port.on('message', (message: ToWriter) => {
  if (message.close) {
    if (retryTimer) clearTimeout(retryTimer);
    db.close();
    Atomics.store(state, SLOT.closed, 1);
    changed();
    port.close();
    return;
  }
  if (message.batch) batches.push(message.batch);
  // A message with no batch asks for a retry now (a reader is waiting).
  if (retryTimer) {
    clearTimeout(retryTimer);
    retryTimer = undefined;
  }
  drain();
});
