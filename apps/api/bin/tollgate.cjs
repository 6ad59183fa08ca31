#!/usr/bin/env node
// The tollgate CLI. `npm install` bundles it into apps/api/dist/tollgate.cjs (scripts/build-cli.mjs), which
// starts without loading TypeScript; while that bundle is missing, or older than any source it was built
// from (fresh-bundle.cjs), the TypeScript entry runs through tsx instead, so a fresh clone or an edited
// source never needs a build step (docs/cli.md, "Startup"). The bin and the bundle are CommonJS: Node
// starts its ES module loader only for an ES module, and that loader alone costs about a fifth of the
// CLI's start (docs/performance.md, "The cli suite").
const { BUNDLE, bundleIsFresh } = require('./fresh-bundle.cjs');

// `tollgate mcp` lives as long as an agent's session and `tollgate serve` longer, each running the same few hundred
// functions on every call. V8 optimises a function once it has run an interrupt budget's worth of bytecode (about
// 66 KB by default), which the gateway's path reached only after about a thousand calls; an eighth of that reaches
// it in a few hundred, and the steady state is the same (docs/performance.md, "Warming up sooner"). Set before any
// of the CLI's own code is compiled; other commands end within a second and keep V8's default.
const LONG_LIVED = new Set(['mcp', 'serve']);
if (LONG_LIVED.has(process.argv[2])) require('node:v8').setFlagsFromString('--interrupt-budget=8192');

function loadMain() {
  if (bundleIsFresh()) return Promise.resolve(require(BUNDLE));
  return import('tsx/esm/api').then(({ register }) => {
    register();
    return import('../src/cli/main.ts');
  });
}

loadMain()
  .then(({ main }) => main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr }))
  .then((code) => {
    process.exitCode = code;
  });
