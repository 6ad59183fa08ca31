// The compile thread (compile-thread.ts): compiles big sheets and Colang off the server's event loop.
// It registers tsx itself, so the TypeScript engine loads wherever the server runs (tsx, vitest, plain Node).
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { compileBody } = await import('./compile-body.ts');

parentPort.on('message', ({ id, body }) => {
  try {
    parentPort.postMessage({ id, answer: compileBody(body) });
  } catch (err) {
    parentPort.postMessage({ id, failed: String(err) });
  }
});
