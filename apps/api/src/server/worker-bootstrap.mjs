// Where every worker thread of the server starts (typescript-worker.ts): Node 20 cannot load TypeScript, so this
// plain module registers tsx and then loads the thread's TypeScript body, whose URL follows the script in
// process.argv. No logic of its own, so that the bodies (compile.worker.ts, state/decisions/log-writer.worker.ts)
// are typechecked; it runs wherever the server runs from its sources: tsx and vitest. The CLI's bundle starts the
// threads' own bundles instead (scripts/build-cli.mjs).
//
// tsx's CommonJS hook, which transforms in this thread: its ES module hook (tsx/esm/api) starts a loader thread
// of its own, which took the decision writer from about 0.1 s of CPU to start to 0.5 s; this one, to 0.18 s
// (docs/performance.md, "API gate").
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
require('tsx/cjs/api').register();
require(fileURLToPath(process.argv[2]));
