// What a policy@1 edit widens, by the decisions it gives: the semantic decision diff of the running and the
// new version (docs/review.md), plus the approval lifetimes and guards, which decide no call (docs/documents.md).
import type { CompiledPolicy } from '../policy/compile.ts';
import { compilePolicy } from '../policy/compile.ts';
import { DEFAULT_APPROVAL_TTL_SECONDS } from '../policy/evaluate.ts';
import type { PolicyDocument, PolicyRule } from '../policy/types.ts';
import { type DiffEntry, decisionDiff } from '../review/decision-diff.ts';
import { AnalysisStopped } from '../review/region-split.ts';

/** How long an edit's impact may take before the edit counts as widening (fail closed). */
export const IMPACT_ANALYSIS_MS = 10_000;

import { readJsonText } from '../source/json-text.ts';
import type { Impact, ImpactContext } from './types.ts';

interface LoadedPolicy {
  document: PolicyDocument;
  compiled: CompiledPolicy;
}

/** A policy no agent ran: it allowed nothing and held nothing (what a new policy is compared with). */
const NOTHING_RUNS = compilePolicy({ schema: 'tollgate/policy@1', default: 'deny', rules: [] });

/** A valid policy text, read exactly and compiled; undefined when it does not load (as the gate reads it). */
function loadPolicyText(text: string): LoadedPolicy | undefined {
  const read = readJsonText(text);
  if (!read.ok || read.diagnostics.length > 0) return undefined;
  const compiled = compilePolicy(read.value);
  return compiled.ok ? { document: read.value as PolicyDocument, compiled: compiled.policy } : undefined;
}

/**
 * Compares a new policy version with the running one by the calls they decide differently: every region of
 * calls whose decision moves toward allow, or whose approvers change other than by narrowing, or that may
 * change depending on arguments, is a widened subject in the decision diff's words; `changes` holds every
 * region that changes, narrowing ones too. With no running version, the regions the new one allows widen
 * (a policy no agent ran allowed nothing, and a call held for a person widens nothing automatic).
 *
 * @example
 * analyzePolicyImpact(v2, v1) // the demo's revert from an automatic limit of 250 to one of 100
 * // { widensSecurity: false, widenedSubjects: [],
 * //   changes: ['refund.issue, amount in (100, 250] USD: allow -> require approval (narrows)'] }
 */
export function analyzePolicyImpact(runningText: string | undefined, newText: string, context: ImpactContext = {}): Impact {
  try {
    return policyImpact(runningText, newText, context);
  } catch (err) {
    // An analysis over its budget says nothing of what changed: fail closed, the edit counts as widening.
    if (!(err instanceof AnalysisStopped)) throw err;
    const why = `the decision diff stopped (${err.code}: ${err.message}), so what it widens is not known`;
    return { widensSecurity: true, widenedSubjects: [why], changes: [why] };
  }
}

function policyImpact(runningText: string | undefined, newText: string, context: ImpactContext): Impact {
  const after = loadPolicyText(newText);
  if (!after) return { widensSecurity: false, widenedSubjects: [], changes: [] };
  const before = runningText === undefined ? undefined : loadPolicyText(runningText);
  if (!before) {
    if (!NOTHING_RUNS.ok) throw new Error('the empty policy does not compile');
    const allowed = decisionDiff(NOTHING_RUNS.policy, after.compiled, undefined, {
      deadline: Date.now() + (context.analysisMs ?? IMPACT_ANALYSIS_MS),
    }).entries.filter(reachesAllow);
    return impactWith(
      allowed.map((e) => e.words),
      allowed,
    );
  }
  const diff = decisionDiff(before.compiled, after.compiled, undefined, {
    deadline: Date.now() + (context.analysisMs ?? IMPACT_ANALYSIS_MS),
  });
  const widened = diff.entries.filter((e) => e.kind === 'depends_on_arguments' || e.direction !== 'narrows').map((e) => e.words);
  const orgTtl = context.defaultApprovalTtlSeconds ?? DEFAULT_APPROVAL_TTL_SECONDS;
  return impactWith([...widened, ...lifetimeSubjects(before.document, after.document, orgTtl)], diff.entries);
}

function impactWith(widened: string[], entries: readonly DiffEntry[]): Impact {
  return { widensSecurity: widened.length > 0, widenedSubjects: widened, changes: entries.map((e) => e.words) };
}

/** A region a new policy may allow: one that becomes allow, or may depending on arguments. */
function reachesAllow(e: DiffEntry): boolean {
  return e.kind === 'depends_on_arguments' || e.to.decision === 'allow';
}

/**
 * What widens an approval without changing a decision, rule by rule (by id): a longer lifetime (or one
 * removed where the organisation default is longer), and a guard removed (an observe window may then relax it).
 */
function lifetimeSubjects(before: PolicyDocument, after: PolicyDocument, orgTtl: number): string[] {
  const old = new Map(before.rules.map((r) => [r.id, r]));
  const out: string[] = [];
  for (const rule of after.rules) {
    const was = old.get(rule.id);
    if (was?.effect === 'require_approval' && rule.effect === 'require_approval') {
      out.push(...approvalSubjects(was, rule, orgTtl).map((s) => `rules/${rule.id} ${s}`));
    }
  }
  return out;
}

function approvalSubjects(before: PolicyRule, after: PolicyRule, orgTtl: number): string[] {
  const out: string[] = [];
  const b = before.approval_ttl_seconds;
  const a = after.approval_ttl_seconds;
  if ((a ?? orgTtl) > (b ?? orgTtl)) {
    if (a === undefined) out.push(`approval_ttl_seconds ${b} removed (org default ${orgTtl})`);
    else out.push(`approval_ttl_seconds ${b ?? `default ${orgTtl}`} -> ${a}`);
  }
  if (before.guard === true && after.guard !== true) out.push('guard removed');
  return out;
}
