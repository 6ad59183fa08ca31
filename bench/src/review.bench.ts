// The review suite: the exact decision diff, the decision map and the impact preview of generated
// policies (review-policies.ts) of 50, 200, 300 and 500 rules with 0, 5 and 10 argument paths, each pair
// a policy and an edit of it, compiled afresh for every run (docs/performance.md, "The review suite").

import { decisionDiff, decisionMap, impactPreview } from '@tollgate/engine';
import { compilePolicy, type PolicyDocument } from '@tollgate/engine/policy';
import { type Figure, figureOf, median } from './measure.ts';
import { reviewCase } from './review-policies.ts';

const RUNS = 3;
const SIZES: [number, number][] = [
  [50, 0],
  [50, 5],
  [50, 10],
  [200, 0],
  [200, 5],
  [200, 10],
  [300, 10],
  [500, 0],
  [500, 5],
  [500, 10],
];

function compiled(doc: PolicyDocument) {
  const c = compilePolicy(doc);
  if (!c.ok) throw new Error('review: a generated policy does not compile');
  return c.policy;
}

function timed(run: () => unknown): number[] {
  const out: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    run();
    out.push(performance.now() - started);
  }
  return out;
}

export function runReviewSuite(): { figures: Figure[]; notes: string[] } {
  const figures: Figure[] = [];
  const notes: string[] = [];
  // Per analysis, its median at 50 and at 500 rules with 10 paths, for the growth figures.
  const at10 = new Map<string, number>();
  for (const [rules, paths] of SIZES) {
    const c = reviewCase(rules, paths);
    const name = `${rules} rules × ${paths} paths`;
    let entries = 0;
    let depends = 0;
    const diff = timed(() => {
      const d = decisionDiff(compiled(c.running), compiled(c.candidate), c.tools);
      entries = d.entries.length;
      depends = d.entries.filter((e) => e.kind === 'depends_on_arguments').length;
    });
    const loose = timed(() => decisionDiff(compiled(c.running), compiled(c.candidate)));
    const map = timed(() => decisionMap(compiled(c.candidate), c.tools));
    const preview = timed(() => impactPreview(compiled(c.running), compiled(c.candidate), c.tools));
    figures.push(
      figureOf(
        'review',
        `review ${name}: diff over the catalogue`,
        'ms',
        diff,
        `${c.tools.length} tools, ${entries} entries, ${depends} depend on arguments`,
      ),
      figureOf('review', `review ${name}: diff without a catalogue`, 'ms', loose),
      figureOf('review', `review ${name}: decision map`, 'ms', map),
      figureOf('review', `review ${name}: impact preview`, 'ms', preview),
    );
    if (paths === 10) {
      for (const [what, values] of [
        ['diff', diff],
        ['map', map],
        ['preview', preview],
      ] as const) {
        at10.set(`${what} ${rules}`, median(values));
      }
    }
    if (depends > 0) notes.push(`${name}: ${depends} entries depend on arguments`);
  }
  for (const what of ['diff', 'map', 'preview']) {
    const small = at10.get(`${what} 50`);
    const big = at10.get(`${what} 500`);
    // Linear growth would be 10× from 50 to 500 rules; the figure is the measured growth over that (1: linear).
    if (small !== undefined && big !== undefined) {
      figures.push(figureOf('review', `review growth 50 → 500 rules (10 paths): ${what} time / 10`, '×', [big / small / 10]));
    }
  }
  return { figures, notes };
}
