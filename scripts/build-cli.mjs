// Bundles the tollgate CLI (apps/api/src/cli/main.ts) into apps/api/dist/tollgate.cjs with esbuild, so the
// CLI starts without loading TypeScript through tsx. Runs from the root `prepare` script on every
// `npm install` and `npm ci`; the user never runs a build step. apps/api/bin/tollgate.cjs runs the bundle
// only while it is newer than every source it was built from (listed in dist/inputs.json), and the
// TypeScript entry through tsx otherwise (docs/cli.md, "Startup").
//
// CommonJS, so Node never starts its ES module loader for the CLI (docs/performance.md, "The cli suite").
// esbuild splits only ES modules into chunks, so each command the entry loads on demand
// (`import('./commands/NAME.ts')` in main.ts) is a bundle of its own, dist/command-NAME.cjs, required when
// asked for: `policy validate` never loads the server. The server's worker threads are bundles of their own
// (dist/compile.worker.cjs, dist/log-writer.worker.cjs, dist/wal-checkpointer.worker.cjs), which
// typescript-worker.ts starts from a bundle. Kept outside: better-sqlite3 (a native addon). A bundled module that finds a file by `new URL(..., import.meta.url)`
// gets its source file's URL instead of the bundle's, so those paths (examples/, apps/web/dist) resolve as they do
// from the sources; the package (scripts/pack.mjs) keeps that layout for the files it holds.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { basename, dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const { bundleIsFresh } = createRequire(import.meta.url)('../apps/api/bin/fresh-bundle.cjs');
const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = fileURLToPath(new URL('../apps/api/dist', import.meta.url));
const cliDir = fileURLToPath(new URL('../apps/api/src/cli/', import.meta.url));

/** The server's worker threads (typescript-worker.ts): bundled too, so the bundle never runs TypeScript. */
const WORKERS = [
  'apps/api/src/server/compile.worker.ts',
  'apps/api/src/server/state/decisions/log-writer.worker.ts',
  'apps/api/src/server/state/decisions/wal-checkpointer.worker.ts',
];

/** `import.meta.url` in a source file of the repository becomes that file's URL, found from the bundle. */
const sourceUrls = {
  name: 'source-urls',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, (args) => {
      if (args.path.includes(`${sep}node_modules${sep}`)) return undefined;
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return { contents: text, loader: 'ts' };
      // Every output file is in outdir, so one relative path serves every bundle; a bundle built elsewhere (the
      // package's, scripts/pack.mjs) is laid out as apps/api/dist is, so the same path serves it too.
      const fromOut = relative(outdir, args.path).split(sep).join('/');
      const url = `require('node:url').pathToFileURL(require('node:path').join(__dirname, ${JSON.stringify(fromOut)})).href`;
      return { contents: text.replaceAll('import.meta.url', url), loader: 'ts' };
    });
  },
};

/** The entry's on-demand commands stay outside it, each required from its own bundle; their names are kept. */
function commandsApart(names) {
  return {
    name: 'commands-apart',
    setup(b) {
      b.onResolve({ filter: /^\.\/commands\/[\w-]+\.ts$/ }, (args) => {
        if (args.kind !== 'dynamic-import' || args.importer !== `${cliDir}main.ts`) return undefined;
        const name = basename(args.path, '.ts');
        names.add(name);
        return { path: `./command-${name}.cjs`, external: true };
      });
    },
  };
}

/**
 * io.ts is one module for the entry and every command: a command throws its CliError and the entry tells
 * it by `instanceof`, which a copy in each bundle would break. It is a bundle of its own, dist/cli-io.cjs.
 */
const oneIo = {
  name: 'one-io',
  setup(b) {
    b.onResolve({ filter: /^\.{1,2}\/(?:.*\/)?io\.ts$/ }, (args) => {
      if (args.kind === 'entry-point' || join(dirname(args.importer), args.path) !== `${cliDir}io.ts`) return undefined;
      return { path: './cli-io.cjs', external: true };
    });
  },
};

/**
 * jsonc-parser's modules may be dropped where nothing of theirs is used: its index builds about 1,200 strings
 * for its formatter when it loads, and the engine uses only its parser (packages/engine/src/source/json-text.ts).
 */
const jsoncWithoutSideEffects = {
  name: 'jsonc-without-side-effects',
  setup(b) {
    b.onResolve({ filter: /.*/ }, async (args) => {
      if (
        args.pluginData === 'jsonc' ||
        !(args.path === 'jsonc-parser' || args.importer.includes(`${sep}node_modules${sep}jsonc-parser${sep}`))
      ) {
        return undefined;
      }
      const found = await b.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: 'jsonc',
      });
      return { ...found, sideEffects: false };
    });
  },
};

const shared = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  outdir,
  outExtension: { '.js': '.cjs' },
  external: ['better-sqlite3'],
  // typescript-worker.ts starts the workers' bundles instead of their TypeScript through tsx.
  define: { TOLLGATE_BUNDLED: 'true' },
  // import() becomes require(): an import() of a CommonJS file would start the ES module loader.
  supported: { 'dynamic-import': false },
  // The ES module build of a package first: some packages' main builds (jsonc-parser's UMD) require
  // files by names no bundler can follow.
  mainFields: ['module', 'main'],
  metafile: true,
  // Input paths in the metafile are then from the repository root, as inputs.json lists them.
  absWorkingDir: root,
  logLevel: 'warning',
};

/**
 * Bundles the CLI into `into` (apps/api/dist unless given); resolves to the bundled sources and the packages the
 * bundles require from outside (better-sqlite3), which an installed package must declare as dependencies.
 *
 * @example
 * const { externals } = await buildCli('/tmp/stage/apps/api/dist');
 */
export async function buildCli(into = outdir) {
  rmSync(into, { recursive: true, force: true });
  mkdirSync(into, { recursive: true });
  const here = { ...shared, outdir: into };
  const commands = new Set();
  const entry = await build({
    ...here,
    entryPoints: { tollgate: `${cliDir}main.ts`, 'cli-io': `${cliDir}io.ts` },
    plugins: [sourceUrls, oneIo, commandsApart(commands), jsoncWithoutSideEffects],
  });
  const entryPoints = Object.fromEntries([...commands].map((name) => [`command-${name}`, `${cliDir}commands/${name}.ts`]));
  const parts = await build({ ...here, entryPoints, plugins: [sourceUrls, oneIo, jsoncWithoutSideEffects] });
  // The server's worker threads, each a bundle of its own named as its source (typescript-worker.ts finds them so).
  const workers = await build({
    ...here,
    entryPoints: Object.fromEntries(WORKERS.map((path) => [basename(path, '.ts'), `${root}${path}`])),
    plugins: [sourceUrls, jsoncWithoutSideEffects],
  });
  // The bundled sources, and what decides how they are bundled: this script and the installed packages.
  const built = [entry, parts, workers];
  const inputs = [...new Set(built.flatMap((b) => Object.keys(b.metafile.inputs)))]
    .filter((path) => !path.includes('node_modules/'))
    .concat(['scripts/build-cli.mjs', 'package-lock.json'])
    .sort();
  // Written last: the bundle counts as built only once its inputs are listed.
  writeFileSync(`${into}/inputs.json`, `${JSON.stringify(inputs, null, 1)}\n`);
  return { outdir: into, inputs, externals: externalPackagesOf(built) };
}

/** The packages the bundles leave to `require` at run time: bare names, not Node's own modules nor our bundles. */
function externalPackagesOf(results) {
  const names = new Set();
  for (const result of results) {
    for (const output of Object.values(result.metafile.outputs)) {
      for (const { path, external } of output.imports) {
        if (!external || path.startsWith('.') || path.startsWith('node:') || isBuiltin(path)) continue;
        names.add(path.startsWith('@') ? path.split('/').slice(0, 2).join('/') : path.split('/')[0]);
      }
    }
  }
  return [...names].sort();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  // --if-stale: keep a fresh bundle as it is, so a CLI running from it meanwhile never loses a chunk.
  if (process.argv.includes('--if-stale') && bundleIsFresh()) process.exit(0);
  try {
    const { outdir: out, inputs } = await buildCli();
    console.log(`build-cli: bundled the tollgate CLI from ${inputs.length} sources into ${relative(root, out)}/tollgate.cjs`);
  } catch (err) {
    // A failed bundle never fails the install: the CLI runs through tsx without it.
    rmSync(outdir, { recursive: true, force: true });
    console.warn(`build-cli: the CLI was not bundled (${err.message}); tollgate runs through tsx instead`);
  }
}
