// Whether the CLI's bundle (apps/api/dist/tollgate.cjs, built by scripts/build-cli.mjs) may run: it exists
// and was built after every source it holds (apps/api/dist/inputs.json, written last) was last changed.
// Sources are stat'ed by plain paths: a URL made per source costs about three times the stats themselves,
// and this runs before every command (docs/performance.md, "The cli suite"). CommonJS, as the bin is.
const { readFileSync, statSync } = require('node:fs');
const { join } = require('node:path');

const DIST = join(__dirname, '..', 'dist');
const BUNDLE = join(DIST, 'tollgate.cjs');

function bundleIsFresh() {
  try {
    const built = statSync(BUNDLE).mtimeMs;
    const inputs = JSON.parse(readFileSync(join(DIST, 'inputs.json'), 'utf8'));
    const root = join(__dirname, '..', '..', '..', '/');
    return inputs.length > 0 && inputs.every((path) => statSync(root + path).mtimeMs <= built);
  } catch {
    return false;
  }
}

module.exports = { BUNDLE, DIST, bundleIsFresh };
