// The CLI's bundle, built when stale, so a suite that runs `tollgate` runs it as it is installed (the bin loads the
// bundle while it is fresh, and the sources through tsx otherwise).
import { spawnSync } from 'node:child_process';
import { REPO_ROOT } from '../../apps/api/test/server-harness.ts';

/** Builds apps/api/dist if any source is newer than it (`scripts/build-cli.mjs --if-stale`); throws if the build fails. */
export function buildCliBundle(): void {
  const build = spawnSync(process.execPath, ['scripts/build-cli.mjs', '--if-stale'], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`the CLI bundle was not built: ${build.stderr}`);
}
