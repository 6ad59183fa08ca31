// Compiles off the event loop: a sheet or Colang of more than INLINE_MAX_CHARS compiles on a thread of its
// own, so a big compile (linear, but the YAML reader takes about a second per few hundred KB) never holds
// the gate's requests or /v1/health (docs/performance.md, "Sheet lists and big compiles"). Small ones, nearly all, run
// inline: a message to the thread costs more than they do.
import type { Worker } from 'node:worker_threads';
import type { DocumentKind } from '@tollgate/engine';
import type { CompileAnswer } from './compile-body.ts';
import type { CompileBody } from './compile-body-schema.ts';
import type { ReviewTask } from './review/answers.ts';
import { typescriptWorker } from './typescript-worker.ts';

export const INLINE_MAX_CHARS = 16 * 1024;

type Pending = { resolve(answer: unknown): void; reject(err: Error): void };

/** A thread running compile.worker.ts; one per process for compiles, and the review pool's own (review/review-pool.ts). It never keeps the process alive. */
export class CompileThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private next = 0;
  dead = false;

  constructor() {
    this.worker = typescriptWorker(new URL('./compile.worker.ts', import.meta.url));
    this.worker.on('message', (m: Reply) => {
      const waiting = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (m.failed === undefined) waiting?.resolve(m.answer);
      else waiting?.reject(new Error(m.failed ?? 'the compile thread answered nothing'));
    });
    const fail = (err: unknown) => {
      this.dead = true;
      for (const waiting of this.pending.values()) waiting.reject(new Error(`the compile thread stopped: ${String(err)}`));
      this.pending.clear();
    };
    this.worker.on('error', fail);
    this.worker.once('exit', fail);
    // After the listeners: attaching a 'message' listener refs the worker's port again, which kept a
    // stopping server alive once the thread had been used (serve-shutdown.test.ts).
    this.worker.unref();
  }

  /** Runs one task of compile.worker.ts: a route's compile, a document's validation or impact, an agent's rules, a decision map or impact preview. */
  run(task: Task): Promise<unknown> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, ...task } satisfies Request);
    });
  }
}

/** What the thread can do: each answers what the same engine call answers on the event loop. */
export type Task =
  | { body: CompileBody }
  | { validate: { id: string; text: string } }
  | { impact: { kind: DocumentKind; running: string | undefined; text: string } }
  | { rules: { text: string; kind: 'sheet' | 'colang'; id: string } }
  | { review: ReviewTask; limits?: ReviewLimits };

/** A review's limits as sent to a thread: its deadline, and a cell the server sets to 1 to cancel it. */
export type ReviewLimits = { deadline: number; cancel: SharedArrayBuffer };

/** A task as posted to the thread, numbered so its answer finds its caller. */
export type Request = { id: number } & Task;

/** The thread's answer to a request: what the task answered, or why it failed. */
export type Reply = { id: number; answer?: unknown; failed?: string };

let thread: CompileThread | undefined;

/**
 * Runs a task on the compile thread when `size` is big, else (or should the thread fail) `inline`: an
 * answer late is better than none, and the answer is the same.
 */
export async function offLoop<T>(size: number, task: Task, inline: () => T | PromiseLike<T>): Promise<T> {
  if (size <= INLINE_MAX_CHARS) return inline();
  if (!thread || thread.dead) thread = new CompileThread();
  try {
    return (await thread.run(task)) as T;
  } catch {
    return inline();
  }
}

/**
 * Compiles a checked body as `compile` does, on the compile thread when it is big. Should the thread
 * fail, the compile runs inline: an answer late is better than none, and the answer is the same.
 *
 * @example
 * const answer = await compileOffLoop(body, compileBody);
 */
export async function compileOffLoop(body: CompileBody, compile: (body: CompileBody) => CompileAnswer): Promise<CompileAnswer> {
  const size = (body.sheet?.length ?? 0) + (body.colang?.length ?? 0) + (body.catalogue?.length ?? 0);
  return offLoop(size, { body }, () => compile(body));
}
