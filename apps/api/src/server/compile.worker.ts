// The compile thread (compile-thread.ts): compiles, validates and weighs big sheets and Colang, and maps
// big policies (review/answers.ts), off the server's event loop. Started through worker-bootstrap.mjs
// (typescript-worker.ts), which registers tsx first, so it loads wherever the server runs (tsx, vitest, the
// CLI bundle) and its messages are typed with compile-thread.ts's own.
import { type MessagePort, parentPort } from 'node:worker_threads';
import { analyzeImpact, compileRules, validateDocument } from '@tollgate/engine';
import { compileBody } from './compile-body.ts';
import type { Reply, Request, Task } from './compile-thread.ts';
import { runReview } from './review/answers.ts';

/** Each task answers what the same call answers on the server's event loop (compile-thread.ts, Task). */
function answer(task: Task): unknown {
  if ('body' in task) return compileBody(task.body);
  if ('validate' in task) {
    const { id, text } = task.validate;
    // The problems themselves, as the edit seam's validator answers them inline (engine-validators.ts).
    return validateDocument(id, text).problems;
  }
  if ('impact' in task) return analyzeImpact(task.impact.kind, task.impact.running, task.impact.text, {});
  if ('review' in task) {
    if (!task.limits) return runReview(task.review);
    const cell = new Int32Array(task.limits.cancel);
    // Read by the analysis every few hundred regions: the server's cancel lands within a millisecond or so.
    const signal = {
      get aborted() {
        return Atomics.load(cell, 0) === 1;
      },
    };
    return runReview(task.review, { deadline: task.limits.deadline, signal });
  }
  if ('rules' in task) return compileRules(task.rules.text, task.rules.kind, undefined, task.rules.id);
  throw new Error('an unknown task');
}

if (!parentPort) throw new Error('compile.worker.ts runs as a worker thread only');
const port: MessagePort = parentPort;
port.on('message', ({ id, ...task }: Request) => {
  try {
    port.postMessage({ id, answer: answer(task) } satisfies Reply);
  } catch (err) {
    port.postMessage({ id, failed: String(err) } satisfies Reply);
  }
});
