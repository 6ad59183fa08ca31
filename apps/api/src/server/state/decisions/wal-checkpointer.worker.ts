// The WAL's checkpointer thread (wal-checkpointer.ts): a connection of its own that copies what the decision log's
// writer thread commits to the WAL into the database file once enough has come (wal-checkpoint-due.ts), so the
// writer's own checkpoints find little left to copy. Started through worker-bootstrap.mjs (typescript-worker.ts).
/// <reference lib="es2024.sharedmemory" />
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { SLOT } from './log-writer-protocol.ts';
import { checkpointDue } from './wal-checkpoint-due.ts';
import type { CheckpointerData, FromCheckpointer, ToCheckpointer } from './wal-checkpointer.ts';

if (!parentPort) throw new Error('wal-checkpointer.worker.ts runs as a worker thread only');
const port: MessagePort = parentPort;
const data = workerData as CheckpointerData;
const closed = new Int32Array(data.closed);

/** Says the connection is closed (or never opened), for the log waiting on it. */
function sayClosed(): void {
  Atomics.store(closed, 0, 1);
  Atomics.notify(closed, 0);
}

let db: Database.Database;
try {
  db = new Database(data.path);
  db.pragma('busy_timeout = 5000');
} catch (err) {
  // The thread ends; the log's connections checkpoint as they always do.
  sayClosed();
  throw err;
}
let failing = false;

const writer = new Int32Array(data.writer);
// From none: what the writer wrote before this thread started is copied at its first look.
let seen = 0;
let last = performance.now();
let closing = false;
let timer: NodeJS.Timeout | undefined;

/** Checkpoints if one is due (wal-checkpoint-due.ts). */
function look(): void {
  const rows = Atomics.load(writer, SLOT.rows);
  const now = performance.now();
  // Nothing written since the last checkpoint: nothing to copy. A few rows wait for more, or for their time.
  if (!checkpointDue(rows, seen, now - last, failing)) return;
  seen = rows;
  last = now;
  try {
    // PASSIVE: copies what no reader still needs, never waiting on the writer or a reader.
    db.pragma('wal_checkpoint(PASSIVE)');
    failing = false;
  } catch (err) {
    if (!failing) port.postMessage({ failed: String(err) } satisfies FromCheckpointer);
    failing = true;
  }
}

/**
 * Looks every `everyMs` while rows come; with every row written checkpointed (and none failing), sleeps until the
 * writer next says it wrote (it bumps and notifies SLOT.changes), so an idle log's thread is not woken a hundred
 * times a second for nothing.
 */
function next(): void {
  if (closing) return;
  if (!failing && Atomics.load(writer, SLOT.rows) === seen) {
    const changes = Atomics.load(writer, SLOT.changes);
    // Read again once `changes` is taken: a write between the two reads has changed it, and the wait ends at once.
    if (Atomics.load(writer, SLOT.rows) === seen) {
      const wait = Atomics.waitAsync(writer, SLOT.changes, changes);
      if (wait.async) {
        void wait.value.then(next);
        return;
      }
    }
  }
  timer = setTimeout(() => {
    look();
    next();
  }, data.everyMs);
}
next();

port.on('message', (message: ToCheckpointer) => {
  if (!message.close) return;
  closing = true;
  clearTimeout(timer);
  db.close();
  sayClosed();
  port.close();
});
