// The decision log's writer thread (log-writer.worker.ts) as the log sees it: the batches sent to it
// and not yet written, and the waits on the state it shares (log-writer-protocol.ts; see sqlite-log.ts for what
// stays exact).
import type { Worker } from 'node:worker_threads';
import type { HeadPlace } from '../../record/decision-entry.ts';
import { typescriptWorker } from '../../typescript-worker.ts';
import { type FromWriter, HEAD_BYTES, ROW, SLOT, SLOTS, type ToWriter, type WriterData } from './log-writer-protocol.ts';
import { type DecisionRow, valuesOf } from './model.ts';

/** How long a read waits for the writer thread before it gives up (SQLite's own busy timeout is 5 s). */
export const WAIT_MS = 10_000;

/** Whether batch `a` is at or after batch `b`: sequences are 32-bit and wrap. */
const atOrAfter = (a: number, b: number) => ((a - b) | 0) >= 0;

/**
 * How each queued row is chained: its entry made off the thread (`given`, as values), or made by the thread
 * (`chainHere`), the first such row after the record's head moved elsewhere carrying that head (`handedAt`).
 */
export interface RowChains {
  given: WeakMap<DecisionRow, unknown[]>;
  chainHere: WeakSet<DecisionRow>;
  handedAt: WeakMap<DecisionRow, { writer: string } & HeadPlace>;
}

/** The writer thread and the batches sent to it that it has not yet written. */
export class WriterThread {
  private readonly worker: Worker;
  private readonly state: Int32Array;
  private seq = 0;
  private sent: { seq: number; rows: DecisionRow[] }[] = [];
  private readonly headSeq: Float64Array;
  private readonly headHash: Uint8Array;
  dead = false;
  /**
   * Set once the log has let the thread go (close, stop): everything was written or taken back first, so a failure
   * after that, such as a thread slow to start finding its data folder removed, has nothing left to lose.
   */
  private released = false;

  /**
   * @param insert the statement writing one row from its values (sqlite-log.ts); `insertEntry` one record entry's.
   * @param chains how each row is chained (sqlite-log.ts, RowChains).
   */
  constructor(
    path: string,
    statements: { insert: string; insertEntry: string; rowWidth: number; entryWidth: number },
    private readonly chains: RowChains,
    onFailure: (message: string) => void,
    onExit: () => void,
  ) {
    const shared = new SharedArrayBuffer(SLOTS * Int32Array.BYTES_PER_ELEMENT);
    this.state = new Int32Array(shared);
    const head = new SharedArrayBuffer(HEAD_BYTES);
    this.headSeq = new Float64Array(head, 0, 1);
    this.headHash = new Uint8Array(head, 8, 64);
    this.worker = typescriptWorker(new URL('./log-writer.worker.ts', import.meta.url), {
      workerData: { path, ...statements, shared, head } satisfies WriterData,
    });
    this.worker.on('message', (m: Partial<FromWriter>) => {
      // A thread stopped may still fail on rows written elsewhere before it reads that it is.
      if (m.failed !== undefined && !this.dead && !this.released) onFailure(m.failed);
    });
    this.worker.on('error', (err) => {
      if (!this.released) onFailure(`the writer thread failed: ${String(err)}`);
    });
    this.worker.once('exit', () => {
      this.dead = true;
      onExit();
    });
    // After the listeners, which ref the worker's port again (compile-thread.ts says the same).
    this.worker.unref();
  }

  /** The state the thread shares (log-writer-protocol.ts, SLOT), for the checkpointer to see what it writes. */
  get shared(): SharedArrayBuffer {
    return this.state.buffer as SharedArrayBuffer;
  }

  get failing(): boolean {
    return Atomics.load(this.state, SLOT.failing) === 1;
  }

  /** Batches sent and not yet written. */
  get behind(): number {
    return (this.seq - Atomics.load(this.state, SLOT.written)) | 0;
  }

  /** Whether the thread is gone (or going): it could not open the database, was closed, or exited. */
  get closed(): boolean {
    return this.dead || Atomics.load(this.state, SLOT.closed) === 1;
  }

  send(rows: DecisionRow[]): void {
    this.seq = (this.seq + 1) | 0;
    this.sent.push({ seq: this.seq, rows });
    const values: unknown[] = [];
    const entries: unknown[] = [];
    const modes = new Uint8Array(rows.length);
    const heads: unknown[] = [];
    const { given, chainHere, handedAt } = this.chains;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i] as DecisionRow;
      for (const value of valuesOf(row)) values.push(value);
      const entry = given.get(row);
      if (entry) {
        modes[i] = ROW.entryGiven;
        for (const value of entry) entries.push(value);
      } else if (chainHere.has(row)) {
        modes[i] = ROW.chainHere;
        const head = handedAt.get(row);
        if (head) heads.push(i, head.writer, head.seq, head.hash);
      }
    }
    this.worker.postMessage({ batch: { seq: this.seq, rows: values, entries, modes, heads } } satisfies ToWriter);
  }

  /** The head of the chain the thread extends, as it stands once every batch sent is written (waitWritten). */
  chainHead(): HeadPlace {
    return { seq: this.headSeq[0] as number, hash: String.fromCharCode(...this.headHash) };
  }

  /** The rows sent and not yet written, oldest first. */
  unwritten(): DecisionRow[] {
    this.prune();
    return this.sent.flatMap((b) => b.rows);
  }

  private prune(): void {
    const written = Atomics.load(this.state, SLOT.written);
    let i = 0;
    while (i < this.sent.length && atOrAfter(written, (this.sent[i] as { seq: number }).seq)) i++;
    if (i > 0) this.sent = this.sent.slice(i);
  }

  /** Blocks until every batch sent is written; throws when a write fails meanwhile or the writer is silent. */
  waitWritten(timeoutMs = WAIT_MS): void {
    const target = this.seq;
    const failures = Atomics.load(this.state, SLOT.failures);
    // The thread holds batches a few milliseconds to write them together, and retries a failed one on a timer; a
    // reader waiting asks for the write now.
    if (this.behind !== 0) this.worker.postMessage({} satisfies ToWriter);
    const written = this.waitFor(() => {
      if (atOrAfter(Atomics.load(this.state, SLOT.written), target)) return true;
      if (Atomics.load(this.state, SLOT.failures) !== failures) throw new Error('the decision log cannot be written');
      if (this.closed) throw new Error('the decision log writer did not answer');
      return false;
    }, timeoutMs);
    if (!written) throw new Error('the decision log writer did not answer');
    this.prune();
  }

  /**
   * Has the thread close its connection without writing what it holds (written elsewhere), and forgets it. Never
   * terminate(): a thread stopped inside one of better-sqlite3's calls that throws brings the process down.
   */
  stop(): void {
    this.dead = true;
    this.released = true;
    this.worker.postMessage({ close: true } satisfies ToWriter);
  }

  /** Asks the thread to close its connection and waits (briefly) until it has. */
  close(): void {
    if (this.dead) return;
    this.released = true;
    this.worker.postMessage({ close: true } satisfies ToWriter);
    // Ended at once only once its connection is closed: a thread stopped inside one of better-sqlite3's calls that
    // throws brings the process down. One still writing ends on its own (unref'd, it holds nothing open).
    if (this.waitFor(() => Atomics.load(this.state, SLOT.closed) === 1, 1000)) void this.worker.terminate();
  }

  /** Blocks until `done` holds (true) or `timeoutMs` pass (false), waking on each change the thread makes. */
  private waitFor(done: () => boolean, timeoutMs: number): boolean {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const changes = Atomics.load(this.state, SLOT.changes);
      if (done()) return true;
      const left = deadline - performance.now();
      if (left <= 0) return false;
      Atomics.wait(this.state, SLOT.changes, changes, left);
    }
  }
}
