// The policy suite: the compiled evaluator on the seed's refunds stream and on a generated 300-rule
// policy, beside the plain reference evaluator on the same streams (ratios from one process run).
import { type CompiledTool, compilePolicy, validatePolicy } from '@tollgate/engine/policy';
import { type Figure, figureOf, median, quantile, ratios, timePass } from './measure.ts';
import { type ReferenceDocument, referenceDecide } from './reference-evaluator.ts';
import { type Call, compileCallTools, generatedPolicy, generatedStream, REFUNDS_POLICY, refundsStream } from './streams.ts';

const COUNT = 100_000;
/** Timed runs of each evaluator over the whole stream, after two warm-up runs. */
const RUNS = 7;

function decideAll(doc: unknown, calls: Call[], name: string, figures: Figure[]) {
  const compiled = compilePolicy(doc);
  if (!compiled.ok) throw new Error(`${name}: invalid policy`);
  const policy = compiled.policy;
  const tools = compileCallTools(calls);
  const engineOne = (i: number) => policy.decide(tools[i] as CompiledTool, (calls[i] as Call).args);
  const referenceOne = (i: number) => referenceDecide(doc as ReferenceDocument, (calls[i] as Call).tool, (calls[i] as Call).args);
  // Warm up both, then interleave their runs so each run's ratio compares like with like.
  for (let w = 0; w < 2; w++) {
    timePass(calls.length, engineOne);
    timePass(calls.length, referenceOne);
  }
  const engine = { perSecond: [] as number[], batchMicros: [] as number[] };
  const reference = { perSecond: [] as number[], batchMicros: [] as number[] };
  for (let run = 0; run < RUNS; run++) {
    for (const [into, one] of [
      [engine, engineOne],
      [reference, referenceOne],
    ] as const) {
      const r = timePass(calls.length, one);
      into.perSecond.push(r.perSecond);
      into.batchMicros.push(...r.batchMicros);
    }
  }
  const counts = new Map<string, number>();
  for (let i = 0; i < calls.length; i++) {
    const d = engineOne(i);
    const key = d.code ?? d.decision;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  figures.push(
    figureOf('policy', `${name}: engine decisions/s`, 'decisions/s', engine.perSecond, `${calls.length} calls a run`),
    figureOf('policy', `${name}: engine per decision`, 'µs', engine.batchMicros, 'mean of each batch of 1,000 calls'),
    figureOf('policy', `${name}: reference evaluator decisions/s`, 'decisions/s', reference.perSecond),
    figureOf('policy', `${name}: reference evaluator per decision`, 'µs', reference.batchMicros),
    figureOf('policy', `${name}: engine / reference evaluator`, '×', ratios(engine.perSecond, reference.perSecond), 'decisions/s, per run'),
  );
  return [...counts.entries()].map(([k, v]) => `${k} ${v}`).join(', ');
}

export function runPolicySuite(): { figures: Figure[]; notes: string[] } {
  const figures: Figure[] = [];
  const notes: string[] = [];
  notes.push(`refunds stream (${COUNT} calls): ${decideAll(REFUNDS_POLICY, refundsStream(COUNT), 'refunds', figures)}`);
  const generated = generatedPolicy(300);
  notes.push(
    `300-rule stream (${COUNT} calls): ${decideAll(generated.policy, generatedStream(generated.tools, COUNT), '300 rules', figures)}`,
  );
  const micros: number[] = [];
  for (let w = 0; w < 5; w++) validatePolicy(generated.policy);
  for (let run = 0; run < 30; run++) {
    const start = process.hrtime.bigint();
    validatePolicy(generated.policy);
    micros.push(Number(process.hrtime.bigint() - start) / 1000);
  }
  figures.push({
    suite: 'policy',
    figure: 'validate a 300-rule policy',
    unit: 'ms',
    median: median(micros) / 1000,
    p95: quantile(micros, 0.95) / 1000,
    runs: micros.length,
  });
  return { figures, notes };
}
