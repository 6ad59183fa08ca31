#!/usr/bin/env node
// The tollgate CLI. `npm install` bundles it into apps/api/dist/tollgate.mjs (scripts/build-cli.mjs), which
// starts without loading TypeScript; while that bundle is missing, or older than any source it was built
// from (dist/inputs.json), the TypeScript entry runs through tsx instead, so a fresh clone or an edited
// source never needs a build step (docs/cli.md, "Startup").
import { readFileSync, statSync } from 'node:fs';

const bundle = new URL('../dist/tollgate.mjs', import.meta.url);

/** Whether the bundle was built after every source it holds was last changed. */
function bundleIsFresh() {
  try {
    const built = statSync(bundle).mtimeMs;
    const inputs = JSON.parse(readFileSync(new URL('../dist/inputs.json', import.meta.url), 'utf8'));
    const root = new URL('../../../', import.meta.url);
    return inputs.length > 0 && inputs.every((path) => statSync(new URL(path, root)).mtimeMs <= built);
  } catch {
    return false;
  }
}

if (bundleIsFresh()) {
  await import(bundle.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/run.ts');
}
