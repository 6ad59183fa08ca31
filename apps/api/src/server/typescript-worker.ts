// Starts a worker thread whose body is TypeScript: through worker-bootstrap.mjs, which registers tsx in the new
// thread before it imports the body. Node 20 runs no TypeScript itself, and under vitest or from the CLI bundle
// the thread has no loader to inherit.
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * A worker thread running the TypeScript module `body`.
 *
 * @example
 * const worker = typescriptWorker(new URL('./compile.worker.ts', import.meta.url));
 */
export function typescriptWorker(body: URL, options: Omit<WorkerOptions, 'argv'> = {}): Worker {
  return new Worker(new URL('./worker-bootstrap.mjs', import.meta.url), { ...options, argv: [body.href] });
}
