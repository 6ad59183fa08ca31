// Decision maps and impact previews as the API answers them (docs/review.md, "In the API and the CLI"):
// stored policy texts compiled, the engine's answers written snake_case. Pure (no store, no database), so
// the compile thread runs the same code for a big document (compile.worker.ts) and the CLI shares it.
import {
  type AnalysisLimits,
  type AnalysisStopCode,
  AnalysisStopped,
  type CompiledPolicy,
  compilePolicy,
  type DecisionDiff,
  type DiffEntry,
  decisionDiff,
  decisionMap,
  formatInterval,
  type ImpactPreview,
  type Interval,
  impactPreview,
  type MapBand,
  type Member,
  type Outcome,
  type ToolBinding,
  type ToolDecision,
} from '@tollgate/engine';
import { type Diagnostic, diagnosticJson, readJsonText, writeJson } from '@tollgate/engine/source';

/** A policy text that does not compile: what is wrong, by the engine's codes. */
/** A problem of a stored policy version: a Diagnostic, as every error's details.problems. */
export type PolicyProblem = Diagnostic;

export type Compiled = { ok: true; policy: CompiledPolicy } | { ok: false; problems: PolicyProblem[] };

/** A stored policy text, read exactly and compiled; a number not stated exactly does not load (as the gate reads it). */
export function compilePolicyText(text: string): Compiled {
  const known = compiledTexts.get(text);
  if (known) return known;
  const compiled = compileText(text);
  // A few versions kept compiled, so a map, a diff and a preview of the same versions share their maps
  // (decisionMap caches per compiled policy) on the thread that ran them.
  if (compiledTexts.size >= COMPILED_KEPT) compiledTexts.delete(compiledTexts.keys().next().value as string);
  compiledTexts.set(text, compiled);
  return compiled;
}

const COMPILED_KEPT = 8;
const compiledTexts = new Map<string, Compiled>();

function compileText(text: string): Compiled {
  const read = readJsonText(text);
  if (!read.ok) return { ok: false, problems: [problemOf(read.diagnostic)] };
  if (read.diagnostics.length > 0) return { ok: false, problems: read.diagnostics.map(problemOf) };
  const compiled = compilePolicy(read.value);
  return compiled.ok ? { ok: true, policy: compiled.policy } : { ok: false, problems: compiled.errors.map(problemOf) };
}

function problemOf(d: Diagnostic): PolicyProblem {
  return diagnosticJson(d);
}

export function intervalJson(i: Interval) {
  return { lo: i.lo, lo_inclusive: i.loInclusive, hi: i.hi, hi_inclusive: i.hiInclusive, words: formatInterval(i) };
}

export function outcomeJson(o: Outcome) {
  return {
    decision: o.decision,
    rule: o.rule,
    code: o.code,
    ...(o.approvers ? { approvers: { roles: [...o.approvers.roles], users: [...o.approvers.users] } } : {}),
    ...(o.eligible ? { eligible: [...o.eligible] } : {}),
    fail_closed: o.failClosed === true,
  };
}

function bandJson(b: MapBand) {
  return {
    amount: b.amount === null ? null : intervalJson(b.amount),
    ...(b.outcome ? { outcome: outcomeJson(b.outcome) } : {}),
    ...(b.depends_on_arguments
      ? { depends_on_arguments: { rules: [...b.depends_on_arguments.rules], reason: b.depends_on_arguments.reason } }
      : {}),
  };
}

export function toolDecisionJson(t: ToolDecision) {
  return {
    tool: t.tool,
    action: t.action,
    decision: t.decision,
    ...(t.outcome ? { outcome: outcomeJson(t.outcome) } : {}),
    ...(t.bands ? { bands: t.bands.map(bandJson) } : {}),
    ...(t.rules ? { rules: [...t.rules] } : {}),
    ...(t.reason !== undefined ? { reason: t.reason } : {}),
    words: t.words,
  };
}

export function diffEntryJson(e: DiffEntry) {
  const region = {
    amount: e.region.amount === null ? null : intervalJson(e.region.amount),
    currency: e.region.currency,
    arguments: e.region.arguments.map((c) => ({
      path: c.path,
      words: c.words,
      any_of: c.anyOf.map((alternative) => alternative.map((t) => ({ op: t.op, operand: t.operand, result: t.result }))),
    })),
  };
  const subject = { label: e.subject.label, ...(e.subject.alike ? { alike: [...e.subject.alike] } : {}) };
  if (e.kind === 'depends_on_arguments') {
    return { kind: e.kind, subject, region, rules: [...e.rules], reason: e.reason, words: e.words };
  }
  return {
    kind: e.kind,
    subject,
    region,
    from: outcomeJson(e.from),
    to: outcomeJson(e.to),
    direction: e.direction,
    // Arguments may hold numbers kept as written (JsonNumber): only writeJson writes them back as they were.
    witness: { tool: e.witness.tool.name, binding: bindingJson(e.witness.tool), arguments: writeJson(e.witness.arguments) },
    words: e.words,
  };
}

function bindingJson(t: ToolBinding) {
  return {
    name: t.name,
    action: t.action,
    ...(t.amount
      ? {
          amount: {
            pointer: t.amount.pointer,
            currency: t.amount.currency,
            ...(t.amount.currency_pointer !== undefined ? { currency_pointer: t.amount.currency_pointer } : {}),
          },
        }
      : {}),
  };
}

export function previewJson(p: ImpactPreview) {
  return {
    tools: p.tools.map((t) => ({
      tool: t.tool,
      action: t.action,
      running: toolDecisionJson(t.running),
      candidate: toolDecisionJson(t.candidate),
      changes: t.changes.map(diffEntryJson),
    })),
    unchanged: [...p.unchanged],
    widens: p.widens,
    narrows: p.narrows,
    depends: p.depends,
  };
}

/** A decision diff as `tollgate policy diff --json` prints it and `POST /v1/policies/diff` answers it. */
export function diffJson(d: DecisionDiff) {
  return { entries: d.entries.map(diffEntryJson), widens: d.widens, narrows: d.narrows, depends: d.depends };
}

export type ToolDecisionJson = ReturnType<typeof toolDecisionJson>;
export type PreviewJson = ReturnType<typeof previewJson>;
export type DiffJson = ReturnType<typeof diffJson>;

/**
 * What the review task computes: maps of one version, or the preview of a candidate, over each list of tools;
 * or the decision diff of two texts, over a list of tools or (none given) every class of tools they tell apart.
 */
export type ReviewTask =
  | { map: { policy: string; catalogues: ToolBinding[][]; members: Member[] } }
  | { preview: { running: string; candidate: string; catalogues: ToolBinding[][]; members: Member[] } }
  | { diff: { running: string; candidate: string; tools: ToolBinding[] | undefined; members: Member[] } };

export type ReviewAnswer =
  | { ok: true; maps: ToolDecisionJson[][] }
  | { ok: true; previews: PreviewJson[] }
  | { ok: true; diff: DiffJson }
  | { ok: false; which: 'policy' | 'running' | 'candidate'; problems: PolicyProblem[] }
  | { ok: false; stopped: { code: AnalysisStopCode; limit: AnalysisStopped['limit']; message: string } };

/** Runs a review task within its limits; the review threads answer the same (review-pool.ts). */
export function runReview(task: ReviewTask, limits: AnalysisLimits = {}): ReviewAnswer {
  try {
    return reviewWithin(task, limits);
  } catch (err) {
    if (!(err instanceof AnalysisStopped)) throw err;
    return { ok: false, stopped: { code: err.code, limit: err.limit, message: err.message } };
  }
}

function reviewWithin(task: ReviewTask, limits: AnalysisLimits): ReviewAnswer {
  if ('map' in task) {
    const { policy, catalogues, members } = task.map;
    const compiled = compilePolicyText(policy);
    if (!compiled.ok) return { ok: false, which: 'policy', problems: compiled.problems };
    return { ok: true, maps: catalogues.map((tools) => decisionMap(compiled.policy, tools, { ...limits, members }).map(toolDecisionJson)) };
  }
  const pair = 'preview' in task ? task.preview : task.diff;
  const before = compilePolicyText(pair.running);
  if (!before.ok) return { ok: false, which: 'running', problems: before.problems };
  const after = compilePolicyText(pair.candidate);
  if (!after.ok) return { ok: false, which: 'candidate', problems: after.problems };
  if ('diff' in task) {
    const { tools, members } = task.diff;
    return { ok: true, diff: diffJson(decisionDiff(before.policy, after.policy, tools, { ...limits, members })) };
  }
  const { catalogues, members } = task.preview;
  return {
    ok: true,
    previews: catalogues.map((tools) => previewJson(impactPreview(before.policy, after.policy, tools, { ...limits, members }))),
  };
}
