// Whether the CLI's bundle (apps/api/dist/tollgate.mjs, built by scripts/build-cli.mjs) may run: it exists
// and was built after every source it holds (apps/api/dist/inputs.json, written last) was last changed.
import { readFileSync, statSync } from 'node:fs';

export const BUNDLE = new URL('../dist/tollgate.mjs', import.meta.url);

export function bundleIsFresh() {
  try {
    const built = statSync(BUNDLE).mtimeMs;
    const inputs = JSON.parse(readFileSync(new URL('../dist/inputs.json', import.meta.url), 'utf8'));
    const root = new URL('../../../', import.meta.url);
    return inputs.length > 0 && inputs.every((path) => statSync(new URL(path, root)).mtimeMs <= built);
  } catch {
    return false;
  }
}
