// npm run pack [-- --out DIR]: builds the installable package, tollgate-VERSION.tgz (docs/cli.md, "The package").
// It holds the CLI and the server bundled by esbuild (their worker threads too), the console built by Vite, the
// examples the demo and the docs use, and a package.json whose dependencies are only what the bundles require from
// outside. Both builds go to a staging folder of their own, so a CLI or a server running from the checkout's
// apps/api/dist or apps/web/dist meanwhile is never disturbed. The staging folder keeps the repository's layout
// (apps/api/dist, apps/web/dist, examples): the bundle finds its files as its sources do (scripts/build-cli.mjs).
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildCli } from './build-cli.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const api = JSON.parse(readFileSync(join(root, 'apps/api/package.json'), 'utf8'));
const workspace = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const fromApi = createRequire(join(root, 'apps/api/package.json'));

/** The version of `name` installed for the API, or undefined where it is not installed (an optional peer). */
function installedVersion(name) {
  try {
    return JSON.parse(readFileSync(fromApi.resolve(`${name}/package.json`), 'utf8')).version;
  } catch {
    return undefined;
  }
}

function run(command, args, cwd) {
  const r = spawnSync(command, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${r.status ?? r.signal}`);
  return r.stdout;
}

/**
 * Builds the package and packs it into `out`; resolves to the tarball's path and the dependencies it declares.
 *
 * @example
 * const { tarball } = await pack('/tmp/out');
 */
export async function pack(out) {
  const stage = mkdtempSync(join(tmpdir(), 'tollgate-pack-'));
  try {
    const { externals } = await buildCli(join(stage, 'apps/api/dist'));
    // inputs.json tells the repository's bin whether its bundle is fresh; the package's bin never asks.
    rmSync(join(stage, 'apps/api/dist/inputs.json'));
    run('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', join(stage, 'apps/web/dist'), '--emptyOutDir'], join(root, 'apps/web'));
    cpSync(join(root, 'examples'), join(stage, 'examples'), { recursive: true });
    mkdirSync(join(stage, 'bin'));
    copyFileSync(join(root, 'scripts/package/tollgate.cjs'), join(stage, 'bin/tollgate.cjs'));
    chmodSync(join(stage, 'bin/tollgate.cjs'), 0o755);
    copyFileSync(join(root, 'scripts/package/README.md'), join(stage, 'README.md'));
    // Pinned to the versions the bundle was built and tested with. A bare name the bundles require that is not
    // installed here (pg-native, which pg tries and does without) is no dependency.
    const dependencies = {};
    const leftOut = [];
    for (const name of externals) {
      const version = installedVersion(name);
      if (version === undefined) leftOut.push(name);
      else dependencies[name] = version;
    }
    const manifest = {
      name: 'tollgate',
      version: api.version,
      description: workspace.description,
      bin: { tollgate: 'bin/tollgate.cjs' },
      engines: workspace.engines,
      dependencies,
    };
    writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    mkdirSync(out, { recursive: true });
    const packed = JSON.parse(run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', out], stage));
    return { tarball: join(out, packed[0].filename), dependencies, leftOut, files: packed[0].entryCount };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({ options: { out: { type: 'string', default: '.' } } });
  try {
    const { tarball, dependencies, leftOut, files } = await pack(resolve(values.out));
    const deps = Object.entries(dependencies).map(([n, v]) => `${n}@${v}`);
    console.log(`pack: ${tarball} (${files} files; dependencies: ${deps.join(', ') || 'none'})`);
    if (leftOut.length > 0) console.log(`pack: required but not installed here, so not declared: ${leftOut.join(', ')}`);
  } catch (err) {
    console.error(`pack: ${err.message}`);
    process.exit(1);
  }
}
