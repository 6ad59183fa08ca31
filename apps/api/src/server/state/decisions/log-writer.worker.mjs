// The decision log's writer thread (sqlite-log.ts, log-writer.ts): it writes batches of decision rows on a connection of
// its own, so the gate's event loop never waits on SQLite. Plain JavaScript, because it runs wherever the
// server runs (tsx, vitest, plain Node) without a TypeScript loader.
//
// Shared state (Int32Array over workerData.shared): [WRITTEN] the last batch sequence written, [FAILURES]
// how many write attempts failed, [FAILING] 1 while the oldest batch cannot be written, [CHANGES] bumped
// (and notified) on every change, [CLOSED] 1 once the connection is closed or could not be opened. Batches are written in order;
// one that fails stays first and is retried, so nothing behind it is written out of order.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const WRITTEN = 0;
const FAILURES = 1;
const FAILING = 2;
const CHANGES = 3;
const CLOSED = 4;
const RETRY_MS = 100;

const state = new Int32Array(workerData.shared);
let db;
let insertMany;
try {
  db = new Database(workerData.path);
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  const insert = db.prepare(workerData.insert);
  insertMany = db.transaction((rows) => {
    for (const row of rows) insert.run(row);
  });
} catch (err) {
  // Nothing can be written here: say so at once (a reader waiting must not wait out its timeout), and
  // exit; the main thread then writes the decisions itself.
  Atomics.store(state, CLOSED, 1);
  Atomics.add(state, CHANGES, 1);
  Atomics.notify(state, CHANGES);
  throw err;
}

/** @type {{ seq: number, rows: unknown[][] }[]} */
const batches = [];
let retryTimer;

function changed() {
  Atomics.add(state, CHANGES, 1);
  Atomics.notify(state, CHANGES);
}

function drain() {
  while (batches.length > 0) {
    const batch = batches[0];
    try {
      insertMany(batch.rows);
    } catch (err) {
      const first = Atomics.load(state, FAILING) === 0;
      Atomics.store(state, FAILING, 1);
      Atomics.add(state, FAILURES, 1);
      changed();
      if (first) parentPort.postMessage({ failed: String(err) });
      retryTimer ??= setTimeout(() => {
        retryTimer = undefined;
        drain();
      }, RETRY_MS);
      return;
    }
    batches.shift();
    Atomics.store(state, FAILING, 0);
    Atomics.store(state, WRITTEN, batch.seq);
    changed();
  }
}

parentPort.on('message', (message) => {
  if (message.close) {
    if (retryTimer) clearTimeout(retryTimer);
    db.close();
    Atomics.store(state, CLOSED, 1);
    changed();
    parentPort.close();
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
