// Bundles the tollgate CLI (apps/api/src/cli/run.ts) into apps/api/dist/tollgate.mjs with esbuild, so the
// CLI starts without loading TypeScript through tsx. Runs from the root `prepare` script on every
// `npm install` and `npm ci`; the user never runs a build step. apps/api/bin/tollgate.mjs runs the bundle
// only while it is newer than every source it was built from (listed in dist/inputs.json), and the
// TypeScript entry through tsx otherwise (docs/cli.md, "Startup").
//
// Kept outside the bundle: better-sqlite3 (a native addon) and the two worker threads, which the server
// starts by URL from their source folders. A bundled module that finds a file by `new URL(..., import.meta.url)`
// gets its source file's URL instead of the bundle's, so those paths (the workers, examples/, apps/web/dist)
// resolve as they do from the sources.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { bundleIsFresh } from '../apps/api/bin/fresh-bundle.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = fileURLToPath(new URL('../apps/api/dist', import.meta.url));
const entry = fileURLToPath(new URL('../apps/api/src/cli/run.ts', import.meta.url));

/** `import.meta.url` in a source file of the repository becomes that file's URL, found from the output file. */
const sourceUrls = {
  name: 'source-urls',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, (args) => {
      if (args.path.includes(`${sep}node_modules${sep}`)) return undefined;
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return { contents: text, loader: 'ts' };
      // Every output file is in outdir (chunks too), so one relative path serves every chunk.
      const fromOut = relative(outdir, args.path).split(sep).join('/');
      const url = `new URL(${JSON.stringify(fromOut)}, import.meta.url).href`;
      return { contents: text.replaceAll('import.meta.url', url), loader: 'ts' };
    });
  },
};

export async function buildCli() {
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const result = await build({
    entryPoints: { tollgate: entry },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Each command stays a chunk of its own, loaded when asked for: `policy validate` never loads the server.
    splitting: true,
    outdir,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunk-[hash]',
    external: ['better-sqlite3'],
    // The ES module build of a package first: some packages' main builds (jsonc-parser's UMD) require
    // files by names no bundler can follow.
    mainFields: ['module', 'main'],
    // Bundled CommonJS packages call require(): give them Node's.
    banner: {
      js: "import { createRequire as __tollgateRequire } from 'node:module';\nconst require = __tollgateRequire(import.meta.url);",
    },
    plugins: [sourceUrls],
    metafile: true,
    // Input paths in the metafile are then from the repository root, as inputs.json lists them.
    absWorkingDir: root,
    logLevel: 'warning',
  });
  // The bundled sources, and what decides how they are bundled: this script and the installed packages.
  const inputs = Object.keys(result.metafile.inputs)
    .filter((path) => !path.includes('node_modules/'))
    .concat(['scripts/build-cli.mjs', 'package-lock.json'])
    .sort();
  // Written last: the bundle counts as built only once its inputs are listed.
  writeFileSync(`${outdir}/inputs.json`, `${JSON.stringify(inputs, null, 1)}\n`);
  return { outdir, inputs };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  // --if-stale: keep a fresh bundle as it is, so a CLI running from it meanwhile never loses a chunk.
  if (process.argv.includes('--if-stale') && bundleIsFresh()) process.exit(0);
  try {
    const { outdir: out, inputs } = await buildCli();
    console.log(`build-cli: bundled the tollgate CLI from ${inputs.length} sources into ${relative(root, out)}/tollgate.mjs`);
  } catch (err) {
    // A failed bundle never fails the install: the CLI runs through tsx without it.
    rmSync(outdir, { recursive: true, force: true });
    console.warn(`build-cli: the CLI was not bundled (${err.message}); tollgate runs through tsx instead`);
  }
}
