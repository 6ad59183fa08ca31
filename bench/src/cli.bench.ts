// The cli suite: wall time of `tollgate policy validate FILE` as a person runs it, each run a fresh Node
// process. The installed bin (which runs the bundle while it is fresh), the bundle itself, the TypeScript
// entry through tsx (what the bin falls back to), and a bare `node -e 0` (the floor no CLI beats), taking
// turns in every round so the machine's load falls on each alike. The bundle is built first, as
// `npm install` builds it.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type Figure, figureOf, MIN_RUNS, ratios } from './measure.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const FILE = 'examples/refunds.policy.json';
const RUNS = Math.max(MIN_RUNS, Number(process.env.CLI_BENCH_RUNS ?? 15));

const BUNDLE_ALONE = "require('./apps/api/dist/tollgate.cjs').main(process.argv.slice(1), process).then((c) => { process.exitCode = c; })";

const CONTENDERS: { name: string; argv: string[] }[] = [
  { name: 'tollgate (bin, bundle fresh)', argv: ['apps/api/bin/tollgate.cjs', 'policy', 'validate', FILE] },
  {
    // The bundle without the bin's freshness check: what that check costs is the difference.
    name: 'bundle (apps/api/dist/tollgate.cjs)',
    argv: ['-e', BUNDLE_ALONE, 'policy', 'validate', FILE],
  },
  { name: 'tsx (apps/api/src/cli/run.ts)', argv: ['--import', 'tsx', 'apps/api/src/cli/run.ts', 'policy', 'validate', FILE] },
  { name: 'node -e 0 (the floor)', argv: ['-e', '0'] },
];

/** One run's wall time in milliseconds, from spawn to exit. */
function wallMs(argv: string[]): number {
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, argv, { cwd: root, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0) throw new Error(`node ${argv.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

export function runCliSuite(): { figures: Figure[]; notes: string[] } {
  const build = spawnSync(process.execPath, ['scripts/build-cli.mjs', '--if-stale'], { cwd: root, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`the CLI bundle was not built: ${build.stderr}`);
  for (const c of CONTENDERS) wallMs(c.argv); // one warm-up each: tsx's cache, the file cache
  const times = CONTENDERS.map(() => [] as number[]);
  for (let run = 0; run < RUNS; run++) {
    CONTENDERS.forEach((c, i) => {
      times[i]?.push(wallMs(c.argv));
    });
  }
  const figures = CONTENDERS.map((c, i) => figureOf('cli', `policy validate: ${c.name}`, 'ms', times[i] as number[]));
  const [bin, , tsx, floor] = times as [number[], number[], number[], number[]];
  // Above the floor: what the CLI itself costs, less Node's own start, which a loaded machine stretches most.
  figures.push(
    figureOf(
      'cli',
      'policy validate: bin above the floor',
      'ms',
      bin.map((ms, i) => ms - (floor[i] as number)),
    ),
  );
  figures.push(
    figureOf(
      'cli',
      'policy validate: tsx above the floor',
      'ms',
      tsx.map((ms, i) => ms - (floor[i] as number)),
    ),
  );
  figures.push(figureOf('cli', 'policy validate: tsx / bin', '×', ratios(tsx, bin)));
  const notes = [`cli: ${RUNS} rounds, each contender once a round, wall time of a fresh process`];
  // Node reads the whole file at every start, before any of the CLI runs (docs/performance.md, "The cli suite").
  if (process.env.NODE_EXTRA_CA_CERTS) notes.push('cli: NODE_EXTRA_CA_CERTS is set, which every Node start (the floor too) pays for');
  return { figures, notes };
}
