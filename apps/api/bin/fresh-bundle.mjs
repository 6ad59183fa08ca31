// Whether the CLI's bundle (apps/api/dist/tollgate.mjs, built by scripts/build-cli.mjs) may run: it exists
// and was built after every source it holds (apps/api/dist/inputs.json, written last) was last changed.
// Sources are stat'ed by plain paths: a URL made per source costs about three times the stats themselves,
// and this runs before every command (docs/performance.md, "The cli suite").
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const BUNDLE = new URL('../dist/tollgate.mjs', import.meta.url);

export function bundleIsFresh() {
  try {
    const built = statSync(BUNDLE).mtimeMs;
    const inputs = JSON.parse(readFileSync(new URL('../dist/inputs.json', import.meta.url), 'utf8'));
    const root = fileURLToPath(new URL('../../../', import.meta.url));
    return inputs.length > 0 && inputs.every((path) => statSync(root + path).mtimeMs <= built);
  } catch {
    return false;
  }
}
