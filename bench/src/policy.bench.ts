// The policy suite: the compiled evaluator on the reference refunds stream and on a generated 300-rule
// policy, beside the plain reference evaluator on the same streams (ratios from one process run).
import { decideCall, decidePrepared, type GateParts, prepareGate } from '@tollgate/engine/gate';
import { type CompiledTool, compilePolicy, type Member, validatePolicy } from '@tollgate/engine/policy';
import type { Catalogue } from '@tollgate/engine/rulebook';
import { compileRules } from '@tollgate/engine/sheet';
import { readJsonText } from '@tollgate/engine/source';
import { type Figure, figureOf, interleavedRuns, median, quantile, ratios } from './measure.ts';
import { type ReferenceDocument, referenceDecide } from './reference-evaluator.ts';
import { type Call, compileCallTools, generatedPolicy, generatedStream, REFUND_TOOLS, REFUNDS_POLICY, refundsStream } from './streams.ts';

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
  // Interleaved, so each run's ratio compares like with like.
  const { a: engine, b: reference } = interleavedRuns(calls.length, engineOne, referenceOne, RUNS);
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

/** Calls through the whole gate (decidePrepared): fewer, since each is a full decision with its explanation. */
const GATE_COUNT = 20_000;

/**
 * The whole gate on the refunds stream for an agent like the demo's support-bot (catalogue, rule sheet,
 * refunds policy): parts prepared once (decidePrepared, as the API decides) beside decideCall, which
 * prepares them on every call (as every call did before the gate work of docs/performance.md, "API gate").
 */
function decideGate(calls: Call[], figures: Figure[]) {
  const compiled = compilePolicy(REFUNDS_POLICY);
  const rules = compileRules(
    'rules:\n  - action: issue_refund\n    at_most: 5\n  - action: send_payout\n    requires_confirmation: true\n',
    'sheet',
  );
  if (!compiled.ok || !rules.ok) throw new Error('gate: the refunds agent does not compile');
  const catalogue: Catalogue = { tools: REFUND_TOOLS.map((t) => ({ ...t, kind: t.amount ? 'write' : 'read' })) };
  const parts: GateParts = {
    catalogue,
    rulebook: rules.rulebook,
    overlay: rules.overlay,
    policies: [{ document: 'policies/refunds.policy.json', sequence: 1, policy: compiled.policy }],
    observeWindows: [],
    delegation: { actions: ['*'] },
    defaultApprovalTtlSeconds: 86_400,
    disclosure: 'rule',
  };
  const members: Member[] = [
    { id: '00000000-0000-4000-8000-000000000001', role: 'owner', signing: true },
    { id: '00000000-0000-4000-8000-000000000002', role: 'admin', signing: true },
    { id: '00000000-0000-4000-8000-000000000003', role: 'approver', signing: true },
  ];
  const now = new Date('2026-01-01T00:00:00Z');
  const prepared = prepareGate(parts);
  const gateCalls = calls.slice(0, GATE_COUNT).map((c) => ({ tool: c.tool.name, arguments: c.args, history: [] }));
  const preparedOne = (i: number) => decidePrepared(prepared, { members, now, call: gateCalls[i] as (typeof gateCalls)[number] });
  const perCallOne = (i: number) => decideCall({ ...parts, members, now, call: gateCalls[i] as (typeof gateCalls)[number] });
  const { a: fast, b: slow } = interleavedRuns(gateCalls.length, preparedOne, perCallOne, RUNS);
  figures.push(
    figureOf('policy', 'gate decide (prepared)', 'µs', fast.batchMicros, `decidePrepared, ${gateCalls.length} refunds calls a run`),
    figureOf('policy', 'gate decide (decideCall, prepared per call)', 'µs', slow.batchMicros),
    figureOf('policy', 'gate prepared / decideCall', '×', ratios(fast.perSecond, slow.perSecond), 'decisions/s, per run'),
  );
}

/**
 * The gate's body reader beside JSON.parse on the refunds stream's bodies: the exact reader (one pass,
 * duplicates, lexemes, depth) is what every request body now goes through.
 */
function readBodies(calls: Call[], figures: Figure[]) {
  const bodies = calls.map((c) => JSON.stringify({ tool: c.tool.name, arguments: c.args }));
  const exactOne = (i: number) => readJsonText(bodies[i] as string);
  const parseOne = (i: number) => JSON.parse(bodies[i] as string);
  const { a: exact, b: parse } = interleavedRuns(bodies.length, exactOne, parseOne, RUNS);
  const bytes = Math.round(bodies.reduce((n, b) => n + b.length, 0) / bodies.length);
  figures.push(
    figureOf(
      'policy',
      'read a call body (exact reader)',
      'µs',
      exact.batchMicros,
      `${bodies.length} refunds bodies, ${bytes} bytes on average`,
    ),
    figureOf('policy', 'read a call body (JSON.parse)', 'µs', parse.batchMicros),
    figureOf('policy', 'exact reader / JSON.parse', '×', ratios(exact.perSecond, parse.perSecond), 'bodies/s, per run'),
  );
}

export function runPolicySuite(): { figures: Figure[]; notes: string[] } {
  const figures: Figure[] = [];
  const notes: string[] = [];
  readBodies(refundsStream(COUNT), figures);
  notes.push(`refunds stream (${COUNT} calls): ${decideAll(REFUNDS_POLICY, refundsStream(COUNT), 'refunds', figures)}`);
  decideGate(refundsStream(COUNT), figures);
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
