// npm run bench [-- SUITE ...]: runs the named suites (all by default), prints one table, and writes
// bench/results/latest.json. Figures only: benchmarks never gate a test.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { runApiSuite } from './api.bench.ts';
import type { Figure } from './measure.ts';
import { runPolicySuite } from './policy.bench.ts';
import { runSheetSuite } from './sheet.bench.ts';
import { runStoreSuite } from './store.bench.ts';

type Suite = () => { figures: Figure[]; notes: string[] } | Promise<{ figures: Figure[]; notes: string[] }>;
const SUITES: Record<string, Suite> = { policy: runPolicySuite, sheet: runSheetSuite, store: runStoreSuite, api: runApiSuite };
SUITES.web = async () => (await import('./web.bench.ts')).runWebSuite(); // loads Playwright only when asked for

const requested = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const unknown = requested.filter((s) => !(s in SUITES));
if (unknown.length > 0) {
  console.error(`unknown suite: ${unknown.join(', ')}; suites: ${Object.keys(SUITES).join(', ')}`);
  process.exit(2);
}
const names = requested.length > 0 ? requested : Object.keys(SUITES);
const machine = `${cpus()[0]?.model ?? 'unknown cpu'} ×${cpus().length}, node ${process.version}`;
const figures: Figure[] = [];
const notes: string[] = [];
for (const name of names) {
  const result = await (SUITES[name] as Suite)();
  figures.push(...result.figures);
  notes.push(...result.notes);
}

function format(n: number): string {
  if (n >= 1000) return Math.round(n).toLocaleString('en-US');
  if (n >= 10) return n.toFixed(1);
  return n.toFixed(3);
}
const width = Math.max(...figures.map((f) => f.figure.length));
console.log(`machine: ${machine}`);
console.log(`${'figure'.padEnd(width)}  ${'median'.padStart(14)}  ${'p95'.padStart(14)}  unit  (runs)`);
for (const f of figures) {
  console.log(`${f.figure.padEnd(width)}  ${format(f.median).padStart(14)}  ${format(f.p95).padStart(14)}  ${f.unit}  (${f.runs})`);
}
for (const n of notes) console.log(`note: ${n}`);
const dir = new URL('../results/', import.meta.url);
mkdirSync(dir, { recursive: true });
writeFileSync(new URL('latest.json', dir), `${JSON.stringify({ machine, at: new Date().toISOString(), figures, notes }, null, 2)}\n`);
