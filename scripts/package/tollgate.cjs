#!/usr/bin/env node
// The tollgate CLI of the installed package (scripts/pack.mjs): the bundle always, since the package holds no
// TypeScript to fall back to (the repository's bin, apps/api/bin/tollgate.cjs, runs the sources when they are newer).
const { main } = require('../apps/api/dist/tollgate.cjs');

main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr }).then((code) => {
  process.exitCode = code;
});
