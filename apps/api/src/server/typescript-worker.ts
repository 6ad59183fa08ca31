// Starts a worker thread whose body is TypeScript. From the sources (tsx, vitest) it starts through
// worker-bootstrap.mjs, which registers tsx in the new thread before it imports the body: Node 20 runs no
// TypeScript itself, and the thread has no loader to inherit. From the CLI's bundle (scripts/build-cli.mjs) it
// starts the body's own bundle, built beside the CLI's, so an installed package runs no TypeScript at all
// (docs/cli.md, "Startup" and "The package").
import { basename } from 'node:path';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** Defined (true) by scripts/build-cli.mjs in every bundle it builds; absent where the sources run. */
declare const TOLLGATE_BUNDLED: boolean | undefined;

/**
 * A worker thread running the TypeScript module `body` (a file named `NAME.worker.ts`).
 *
 * @example
 * const worker = typescriptWorker(new URL('./compile.worker.ts', import.meta.url));
 */
export function typescriptWorker(body: URL, options: Omit<WorkerOptions, 'argv'> = {}): Worker {
  if (typeof TOLLGATE_BUNDLED === 'boolean' && TOLLGATE_BUNDLED) {
    // The bundle's import.meta.url is this source's URL (build-cli.mjs), so apps/api/dist is ../../dist from here.
    return new Worker(new URL(`../../dist/${basename(body.pathname, '.ts')}.cjs`, import.meta.url), options);
  }
  return new Worker(new URL('./worker-bootstrap.mjs', import.meta.url), { ...options, argv: [body.href] });
}
