#!/usr/bin/env node
// The tollgate CLI. `npm install` bundles it into apps/api/dist/tollgate.cjs (scripts/build-cli.mjs), which
// starts without loading TypeScript; while that bundle is missing, or older than any source it was built
// from (fresh-bundle.cjs), the TypeScript entry runs through tsx instead, so a fresh clone or an edited
// source never needs a build step (docs/cli.md, "Startup"). The bin and the bundle are CommonJS: Node
// starts its ES module loader only for an ES module, and that loader alone costs about a fifth of the
// CLI's start (docs/performance.md, "The cli suite").
const { BUNDLE, bundleIsFresh } = require('./fresh-bundle.cjs');

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
