// The policy suite: the compiled evaluator on the seed's refunds stream and on a generated 300-rule
// policy, beside the plain reference evaluator on the same streams (ratios from one process run).
import { type CompiledTool, compilePolicy, validatePolicy } from '@tollgate/engine/policy';
import { type Figure, measureStream, median, quantile } from './measure.ts';
import { type ReferenceDocument, referenceDecide } from './reference-evaluator.ts';
import { type Call, compileCallTools, generatedPolicy, generatedStream, REFUNDS_POLICY, refundsStream } from './streams.ts';

const COUNT = 100_000;

function decideAll(doc: unknown, calls: Call[], name: string, figures: Figure[], referenceRuns: number) {
  const compiled = compilePolicy(doc);
  if (!compiled.ok) throw new Error(`${name}: invalid policy`);
  const policy = compiled.policy;
  const tools = compileCallTools(calls);
  const engine = measureStream(calls.length, (i) => policy.decide(tools[i] as CompiledTool, (calls[i] as Call).args));
  const reference = measureStream(
    calls.length,
    (i) => referenceDecide(doc as ReferenceDocument, (calls[i] as Call).tool, (calls[i] as Call).args),
    referenceRuns,
    1,
  );
  const counts = new Map<string, number>();
  for (let i = 0; i < calls.length; i++) {
    const d = policy.decide(tools[i] as CompiledTool, (calls[i] as Call).args);
    const key = d.code ?? d.decision;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const add = (figure: string, unit: string, values: number[]) =>
    figures.push({
      suite: 'policy',
      figure: `${name}: ${figure}`,
      unit,
      median: median(values),
      p95: quantile(values, 0.95),
      runs: values.length,
    });
  add('engine decisions/s', 'decisions/s', engine.perSecond);
  add('engine per decision', 'µs', engine.batchMicros);
  add('reference decisions/s', 'decisions/s', reference.perSecond);
  add('reference per decision', 'µs', reference.batchMicros);
  const ratio = median(engine.perSecond) / median(reference.perSecond);
  figures.push({ suite: 'policy', figure: `${name}: engine / reference`, unit: '×', median: ratio, p95: ratio, runs: 1 });
  return [...counts.entries()].map(([k, v]) => `${k} ${v}`).join(', ');
}

export function runPolicySuite(): { figures: Figure[]; notes: string[] } {
  const figures: Figure[] = [];
  const notes: string[] = [];
  notes.push(`refunds stream (${COUNT} calls): ${decideAll(REFUNDS_POLICY, refundsStream(COUNT), 'refunds', figures, 3)}`);
  const generated = generatedPolicy(300);
  notes.push(
    `300-rule stream (${COUNT} calls): ${decideAll(generated.policy, generatedStream(generated.tools, COUNT), '300 rules', figures, 2)}`,
  );
  const micros: number[] = [];
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
