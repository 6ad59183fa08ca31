// Compiles off the event loop: a sheet or Colang of more than INLINE_MAX_CHARS compiles on a thread of its
// own, so a big compile (linear, but the YAML reader takes about a second per few hundred KB) never holds
// the gate's requests or /v1/health (docs/performance.md, "Sheet lists and big compiles"). Small ones, nearly all, run
// inline: a message to the thread costs more than they do.
import { Worker } from 'node:worker_threads';
import type { CompileAnswer } from './compile-body.ts';
import type { CompileBody } from './rule-sheets.ts';

export const INLINE_MAX_CHARS = 16 * 1024;

type Pending = { resolve(answer: CompileAnswer): void; reject(err: Error): void };

/** One thread per process, started on the first big compile; it never keeps the process alive. */
class CompileThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private next = 0;
  dead = false;

  constructor() {
    this.worker = new Worker(new URL('./compile.worker.mjs', import.meta.url));
    this.worker.unref();
    this.worker.on('message', (m: { id: number; answer?: CompileAnswer; failed?: string }) => {
      const waiting = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (m.answer) waiting?.resolve(m.answer);
      else waiting?.reject(new Error(m.failed ?? 'the compile thread answered nothing'));
    });
    const fail = (err: unknown) => {
      this.dead = true;
      for (const waiting of this.pending.values()) waiting.reject(new Error(`the compile thread stopped: ${String(err)}`));
      this.pending.clear();
    };
    this.worker.on('error', fail);
    this.worker.once('exit', fail);
  }

  compile(body: CompileBody): Promise<CompileAnswer> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, body });
    });
  }
}

let thread: CompileThread | undefined;

/**
 * Compiles a checked body as `compile` does, on the compile thread when it is big. Should the thread
 * fail, the compile runs inline: an answer late is better than none, and the answer is the same.
 *
 * @example
 * const answer = await compileOffLoop(body, compileBody);
 */
export async function compileOffLoop(body: CompileBody, compile: (body: CompileBody) => CompileAnswer): Promise<CompileAnswer> {
  const size = (body.sheet?.length ?? 0) + (body.colang?.length ?? 0) + (body.catalogue?.length ?? 0);
  if (size <= INLINE_MAX_CHARS) return compile(body);
  if (!thread || thread.dead) thread = new CompileThread();
  try {
    return await thread.compile(body);
  } catch {
    return compile(body);
  }
}
