// The checkpointer of the decision log's database (docs/performance.md, "Off the event loop"): in WAL mode
// the connection whose commit takes the WAL past 1,000 pages copies them into the database file there and then, and
// on the writer thread that took about a third of its time and stopped it for 10 ms or more, long enough for the gate
// to wait on it (sqlite-log.ts, MAX_UNWRITTEN_BATCHES). A thread of its own copies what is committed, looking every
// CHECKPOINT_EVERY_MS whether enough rows have come or a few have waited (wal-checkpoint-due.ts), so the writer's own
// checkpoint finds little left to copy; once it has copied every row written it sleeps until the writer writes again.
// The writer keeps checkpointing itself: SQLite starts the WAL over only at a writer's transaction after a checkpoint
// that copied everything, which one running beside the writer never does (the WAL grew by 6 MB a second without it).
import type { Worker } from 'node:worker_threads';
import { typescriptWorker } from '../../typescript-worker.ts';

/** How often the thread looks whether a checkpoint is due, while rows it has not copied are there. */
export const CHECKPOINT_EVERY_MS = 10;

/** Decisions sent to the writer thread before the checkpointer starts: a log that writes a few never needs one. */
export const CHECKPOINTER_AFTER_ROWS = 2000;

/** How long closing waits for the thread's connection to close. */
const CLOSE_WAIT_MS = 1000;

export interface CheckpointerData {
  path: string;
  everyMs: number;
  /** One Int32, 1 once the thread's connection is closed (or could not be opened). */
  closed: SharedArrayBuffer;
  /** The writer thread's shared state (log-writer-protocol.ts): a tick with nothing written since the last does nothing. */
  writer: SharedArrayBuffer;
}

export interface ToCheckpointer {
  close?: true;
}

export type FromCheckpointer = { failed: string };

/** The checkpointer thread of one database file. */
export class WalCheckpointer {
  private readonly worker: Worker;
  private readonly closed: Int32Array;
  private stopped = false;

  constructor(path: string, writer: SharedArrayBuffer, warn: (message: string) => void) {
    const closed = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
    this.closed = new Int32Array(closed);
    this.worker = typescriptWorker(new URL('./wal-checkpointer.worker.ts', import.meta.url), {
      workerData: { path, everyMs: CHECKPOINT_EVERY_MS, closed, writer } satisfies CheckpointerData,
    });
    // Once closed it has nothing left to do: a thread slow to start that then finds its data folder removed is no
    // one's to hear (log-writer.ts says the same of the writer thread).
    this.worker.on('message', (m: FromCheckpointer) => {
      if (!this.stopped) warn(`the WAL checkpointer could not checkpoint (${m.failed}); retrying`);
    });
    this.worker.on('error', (err) => {
      if (!this.stopped) warn(`the WAL checkpointer failed: ${String(err)}`);
    });
    this.worker.once('exit', () => {
      this.stopped = true;
    });
    // After the listeners, which ref the worker's port again (compile-thread.ts says the same).
    this.worker.unref();
  }

  /**
   * Stops the thread, waiting (briefly) until its connection is closed, so nothing of it outlives the database's
   * other connections (SQLite checkpoints as the last one closes).
   */
  close(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.worker.postMessage({ close: true } satisfies ToCheckpointer);
    const deadline = performance.now() + CLOSE_WAIT_MS;
    for (let left = CLOSE_WAIT_MS; Atomics.load(this.closed, 0) === 0 && left > 0; left = deadline - performance.now()) {
      Atomics.wait(this.closed, 0, 0, left);
    }
    // Never terminate(): a thread stopped inside one of better-sqlite3's calls that throws brings the process down.
    // One still busy past the wait ends on its own once it reads the message (unref'd, it holds nothing open).
  }
}
