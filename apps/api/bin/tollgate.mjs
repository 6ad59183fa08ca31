#!/usr/bin/env node
// The tollgate CLI. `npm install` bundles it into apps/api/dist/tollgate.mjs (scripts/build-cli.mjs), which
// starts without loading TypeScript; while that bundle is missing, or older than any source it was built
// from (fresh-bundle.mjs), the TypeScript entry runs through tsx instead, so a fresh clone or an edited
// source never needs a build step (docs/cli.md, "Startup").
import { BUNDLE, bundleIsFresh } from './fresh-bundle.mjs';

if (bundleIsFresh()) {
  await import(BUNDLE.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/run.ts');
}
