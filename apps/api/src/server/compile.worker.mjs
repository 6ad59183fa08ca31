// The compile thread (compile-thread.ts): compiles, validates and weighs big sheets and Colang, and maps
// big policies (review/answers.ts), off the server's event loop.
// It registers tsx itself, so the TypeScript engine loads wherever the server runs (tsx, vitest, plain Node).
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { compileBody } = await import('./compile-body.ts');
const { runReview } = await import('./review/answers.ts');
const { analyzeImpact, compileRules, validateDocument } = await import('@tollgate/engine');

/** Each task answers what the same call answers on the server's event loop (compile-thread.ts, Task). */
function answer(task) {
  if (task.body) return compileBody(task.body);
  if (task.validate) {
    const { id, text } = task.validate;
    // The problems themselves, as the edit seam's validator answers them inline (engine-validators.ts).
    return validateDocument(id, text).problems;
  }
  if (task.impact) return analyzeImpact(task.impact.kind, task.impact.running, task.impact.text, {});
  if (task.review) return runReview(task.review);
  if (task.rules) return compileRules(task.rules.text, task.rules.kind, undefined, task.rules.id);
  throw new Error('an unknown task');
}

parentPort.on('message', ({ id, ...task }) => {
  try {
    parentPort.postMessage({ id, answer: answer(task) });
  } catch (err) {
    parentPort.postMessage({ id, failed: String(err) });
  }
});
