// npm run bench [-- SUITE ...]: runs the named suites (all by default), each in a fresh Node process of
// its own (so one suite's JIT state and heap never colour another's, and a crash costs one suite, not the
// run), prints one table and the targets, and writes bench/results/latest.json. Figures only: benchmarks
// never gate a test.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runApiSuite } from './api.bench.ts';
import { runCliSuite } from './cli.bench.ts';
import { runMcpSuite } from './mcp.bench.ts';
import type { Figure } from './measure.ts';
import { runPeersSuite } from './peers.bench.ts';
import { runPolicySuite } from './policy.bench.ts';
import { runSheetSuite } from './sheet.bench.ts';
import { runStoreSuite } from './store.bench.ts';
import { checkTargets } from './targets.ts';

type Suite = () => { figures: Figure[]; notes: string[] } | Promise<{ figures: Figure[]; notes: string[] }>;
const SUITES: Record<string, Suite> = {
  policy: runPolicySuite,
  sheet: runSheetSuite,
  store: runStoreSuite,
  api: runApiSuite,
  peers: runPeersSuite,
  cli: runCliSuite,
  mcp: runMcpSuite,
};
SUITES.web = async () => (await import('./web.bench.ts')).runWebSuite(); // loads Playwright only when asked for
// Loaded only when asked for: it probes PostgreSQL as it loads.
SUITES.cluster = async () => (await import('./cluster.bench.ts')).runClusterSuite();
SUITES.webhooks = async () => (await import('./webhooks.bench.ts')).runWebhooksSuite();
SUITES.review = async () => (await import('./review.bench.ts')).runReviewSuite();
/** The order of a full run (docs/performance.md, "One full run"), then any suite registered beside these. */
const ORDER = ['policy', 'sheet', 'store', 'api', 'web', 'peers', 'cli', 'mcp', 'cluster'];

const CHILD = '--child-out=';
const args = process.argv.slice(2);
const childOut = args.find((a) => a.startsWith(CHILD))?.slice(CHILD.length);
const requested = args.filter((a) => !a.startsWith('-'));
const unknown = requested.filter((s) => !(s in SUITES));
if (unknown.length > 0) {
  console.error(`unknown suite: ${unknown.join(', ')}; suites: ${Object.keys(SUITES).join(', ')}`);
  process.exit(2);
}

if (childOut !== undefined) {
  // A child: run the one suite asked for and hand its figures back through a file.
  const result = await (SUITES[requested[0] as string] as Suite)();
  writeFileSync(childOut, JSON.stringify(result));
  process.exit(0);
}

const all = [...ORDER.filter((s) => s in SUITES), ...Object.keys(SUITES).filter((s) => !ORDER.includes(s))];
const names = requested.length > 0 ? all.filter((s) => requested.includes(s)) : all;
const machine = `${cpus()[0]?.model ?? 'unknown cpu'} ×${cpus().length}, node ${process.version}, load ${loadavg()
  .map((l) => l.toFixed(1))
  .join(' ')} at start (shared machine)`;
const figures: Figure[] = [];
const notes: string[] = [];
const scratch = mkdtempSync(join(tmpdir(), 'tollgate-bench-'));
try {
  for (const name of names) {
    const out = join(scratch, `${name}.json`);
    process.stderr.write(`bench: ${name}...\n`);
    const started = Date.now();
    // process.execArgv carries tsx's loader, so the child runs this same file the same way.
    const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), name, `${CHILD}${out}`], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    let result: { figures: Figure[]; notes: string[] } | undefined;
    try {
      result = JSON.parse(readFileSync(out, 'utf8'));
    } catch {
      result = undefined;
    }
    if (child.status !== 0 || !result) {
      const why = child.signal ? `signal ${child.signal}` : `exit ${child.status}`;
      figures.push({ suite: name, figure: `${name}: SUITE FAILED (${why})`, unit: '-', median: Number.NaN, p95: Number.NaN, runs: 0 });
      notes.push(`!!! suite ${name} failed (${why}); its figures are missing !!!`);
      continue;
    }
    figures.push(...result.figures);
    notes.push(...result.notes, `${name}: ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
for (const f of figures) f.machine = machine;

function format(n: number): string {
  if (!Number.isFinite(n)) return '-';
  if (n >= 1000) return Math.round(n).toLocaleString('en-US');
  if (n >= 10) return n.toFixed(1);
  return n.toFixed(3);
}
const width = Math.max(6, ...figures.map((f) => f.figure.length));
console.log(`\nmachine: ${machine}`);
console.log(
  `${'suite'.padEnd(6)}  ${'figure'.padEnd(width)}  ${'median'.padStart(12)}  ${'p95'.padStart(12)}  ${'unit'.padEnd(11)}  runs  note`,
);
for (const f of figures) {
  console.log(
    `${f.suite.padEnd(6)}  ${f.figure.padEnd(width)}  ${format(f.median).padStart(12)}  ${format(f.p95).padStart(12)}  ${f.unit.padEnd(11)}  ${String(f.runs).padStart(4)}  ${f.note ?? ''}`,
  );
}
const targets = checkTargets(figures);
console.log('\ntargets (docs/performance.md):');
for (const t of targets) {
  if (t.status === 'not measured' && requested.length > 0) continue; // a partial run: only its own targets
  const mark = t.status === 'met' ? 'met   ' : t.status === 'missed' ? 'MISSED' : 'n/a   ';
  console.log(`  ${mark} ${t.target}${t.value === undefined ? '' : `: ${format(t.value)} ${t.unit}`}`);
}
console.log('');
for (const n of notes) console.log(`note: ${n}`);
const dir = new URL('../results/', import.meta.url);
mkdirSync(dir, { recursive: true });
writeFileSync(
  new URL('latest.json', dir),
  `${JSON.stringify({ machine, at: new Date().toISOString(), suites: names, figures, targets, notes }, null, 2)}\n`,
);
