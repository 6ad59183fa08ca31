// What a policy@1 edit widens: the default, rules compared by id (coverage, effect, approvers, TTL,
// guard), and require_approval rules that reach calls the running default denied (docs/documents.md).
import { DEFAULT_APPROVAL_TTL_SECONDS } from '../policy/evaluate.ts';
import type { Effect, PolicyDocument, PolicyRule } from '../policy/types.ts';
import { validatePolicy } from '../policy/validate.ts';
import { readJsonText } from '../source/json-text.ts';
import { coverageChanges, ruleWithin } from './policy-coverage.ts';
import type { Impact, ImpactContext } from './types.ts';
import { impactOf } from './types.ts';

const RANK: Record<Effect, number> = { allow: 0, require_approval: 1, deny: 2 };

/**
 * Reads a valid policy document, or undefined when the text does not load.
 *
 * @example
 * loadPolicy('{"schema": "tollgate/policy@1", "default": "deny", "rules": []}') // { schema: ..., default: 'deny', rules: [] }
 */
export function loadPolicy(text: string): PolicyDocument | undefined {
  const read = readJsonText(text);
  if (!read.ok || read.diagnostics.length > 0) return undefined;
  return validatePolicy(read.value).valid ? (read.value as PolicyDocument) : undefined;
}

/**
 * Compares a new policy version with the running one. With no running version, only the new document's
 * allow rules are widenings (a policy no agent ran allowed nothing, and held nothing a person decides).
 *
 * @example
 * analyzePolicyImpact(running, running.replace('"lte": "100"', '"lte": "250"'))
 * // { widensSecurity: true, widenedSubjects: ['rules/refund-auto amount lte 100 -> 250'] }
 */
export function analyzePolicyImpact(runningText: string | undefined, newText: string, context: ImpactContext = {}): Impact {
  const after = loadPolicy(newText);
  if (!after) return impactOf([]);
  const before = runningText === undefined ? undefined : loadPolicy(runningText);
  if (!before) return impactOf(after.rules.filter((r) => r.effect === 'allow').map((r) => `rules/${r.id} added`));
  return impactOf(policySubjects(before, after, context.defaultApprovalTtlSeconds ?? DEFAULT_APPROVAL_TTL_SECONDS));
}

/**
 * Every widening from one valid document to another, in document order.
 *
 * @example
 * policySubjects({ ...doc, default: 'deny' }, { ...doc, default: 'require_approval' }, 86400) // ['default deny -> require_approval']
 */
export function policySubjects(before: PolicyDocument, after: PolicyDocument, orgTtl: number): string[] {
  const subjects: string[] = [];
  if (RANK[after.default] < RANK[before.default]) subjects.push(`default ${before.default} -> ${after.default}`);
  const old = new Map(before.rules.map((r) => [r.id, r]));
  const kept = new Set(after.rules.map((r) => r.id));
  for (const rule of before.rules) {
    // Removing an allow only ever refuses more; removing a deny or approval lets its calls fall to others.
    if (!kept.has(rule.id) && rule.effect !== 'allow') subjects.push(`rules/${rule.id} removed`);
  }
  for (const rule of after.rules) {
    const was = old.get(rule.id);
    const prefix = `rules/${rule.id}`;
    if (!was) {
      if (rule.effect === 'allow' || (rule.effect === 'require_approval' && reachesDenied(rule, before))) subjects.push(`${prefix} added`);
      continue;
    }
    subjects.push(...ruleSubjects(was, rule, before, orgTtl).map((s) => `${prefix} ${s}`));
  }
  return subjects;
}

/** Widenings of one rule kept under its id, without the `rules/<id>` in front. */
function ruleSubjects(before: PolicyRule, after: PolicyRule, document: PolicyDocument, orgTtl: number): string[] {
  const out: string[] = [];
  if (RANK[after.effect] < RANK[before.effect]) out.push(`effect ${before.effect} -> ${after.effect}`);
  const changes = coverageChanges(before, after);
  if (after.effect === 'allow') {
    out.push(...changes.filter((c) => c.grows).map((c) => c.subject));
    return out;
  }
  const held = after.effect === 'require_approval';
  const spread = held && changes.some((c) => c.grows) && reachesDenied(after, document);
  for (const c of changes) {
    // A deny or approval that covers fewer calls lets the rest fall to other rules; an approval that
    // covers more holds calls the running default denied.
    if ((before.effect !== 'allow' && c.shrinks) || (spread && c.grows)) out.push(c.subject);
  }
  if (held && before.effect === 'require_approval') out.push(...approvalSubjects(before, after, orgTtl));
  return out;
}

/**
 * Whether a require_approval rule may hold calls the running document denied by default: the running
 * default is deny and no running rule (other than its own earlier version) already covers all its calls.
 */
function reachesDenied(rule: PolicyRule, running: PolicyDocument): boolean {
  if (running.default !== 'deny') return false;
  return !running.rules.some((r) => r.id !== rule.id && ruleWithin(rule, r));
}

function approvalSubjects(before: PolicyRule, after: PolicyRule, orgTtl: number): string[] {
  const out: string[] = [];
  for (const role of after.approvers?.roles ?? []) if (!before.approvers?.roles?.includes(role)) out.push(`approvers roles + ${role}`);
  for (const user of after.approvers?.users ?? []) if (!before.approvers?.users?.includes(user)) out.push(`approvers users + ${user}`);
  const b = before.approval_ttl_seconds;
  const a = after.approval_ttl_seconds;
  if ((a ?? orgTtl) > (b ?? orgTtl)) {
    if (a === undefined) out.push(`approval_ttl_seconds ${b} removed (org default ${orgTtl})`);
    else out.push(`approval_ttl_seconds ${b ?? `default ${orgTtl}`} -> ${a}`);
  }
  if (before.guard === true && after.guard !== true) out.push('guard removed');
  return out;
}
