// The gate: one agent call decided from the agent's parts, already loaded and compiled (docs/catalogue.md,
// docs/rulesets.md). In order: the gate's own limits (hard-limits.ts: the rule set's status, the catalogue,
// the delegation's actions and validity, the amount, the spending limit), every rulebook's tool check
// (rulebook-checks.ts: the agent's and the rule set's pinned sheets and Colang, refuse anywhere wins), then
// the policy or every pinned policy (policy-verdict.ts: deny anywhere wins), then a confirmation the
// rulebooks asked for, then require_approval. Inside an observe window, rules' decisions are relaxed (never
// a guard rule, the hard limits or approver-count denials). Pure: the caller records and answers.
// decidePrepared decides from an agent's parts prepared once (prepare-gate.ts); decideCall prepares, then decides.

import { codesIn } from '../codes/index.ts';
import type { ObserveWindow } from '../documents/settings.ts';
import { parseDateTime } from '../documents/values.ts';
import { gateDenial } from './gate-decision.ts';
import type { DecideCallInput, GateDecision, PreparedCallInput } from './gate-types.ts';
import { admitCall } from './hard-limits.ts';
import { judgePolicies, policyDecision, relaxedAllow, standingOf, windowRelaxedEveryStop } from './policy-verdict.ts';
import { openWindow, type PreparedGate, prepareGate } from './prepare-gate.ts';
import { checkRulebooks } from './rulebook-checks.ts';

export { definitionChangedSummary, notAuthorizedSummary } from './gate-decision.ts';
export type * from './gate-types.ts';
export { NEVER_RELAXED } from './policy-verdict.ts';

/** Codes the gate itself decides with, before (or instead of) the policy: a view of the one registry (codes/). */
export const GATE_CODES: Readonly<Record<string, string>> = Object.fromEntries(codesIn('gate').map((c) => [c.code, c.when.gate as string]));

/**
 * Decides one call. For many calls of one agent, prepare its parts once (prepareGate) and use decidePrepared:
 * the results are the same.
 *
 * @example
 * decideCall({ catalogue, policies: [{ document: 'policies/refunds.policy.json', sequence: 1, policy }],
 *   delegation: { actions: ['refund.issue'] }, members, now, call: { tool: 'issue_refund', arguments: { amount: '500' } } })
 * // { decision: 'require_approval', rule: 'refund-approval', approval: { approvers: [...], ... }, ... }
 */
export function decideCall(input: DecideCallInput): GateDecision {
  return decidePrepared(prepareGate(input), input);
}

/**
 * Decides one call from an agent's prepared parts (prepareGate): no catalogue search, no tool compiled, no
 * overlay laid and no date parsed per call.
 *
 * @example
 * const prepared = prepareGate(parts); // once per loaded agent
 * decidePrepared(prepared, { members, now, call: { tool: 'issue_refund', arguments: { amount: '50' } } })
 * // { decision: 'allow', rule: 'refund-auto', ... }
 */
export function decidePrepared(prepared: PreparedGate, input: PreparedCallInput): GateDecision {
  const admission = admitCall(prepared, input);
  if (admission.refused !== undefined) return admission.refused;
  const admitted = admission.admitted;
  const scope = admitted.scope;

  // From here on, rules decide: an observe window may relax what they say.
  const window = prepared.windows.length === 0 ? undefined : openWindow(prepared.windows, admitted.t);
  const rulebooks = checkRulebooks(prepared, admitted, input.call, window?.relax === 'denials' ? 'relaxed' : 'stands');
  if (rulebooks.refused !== undefined) return rulebooks.refused;
  const { relaxedRefusal, confirm } = rulebooks;

  if (prepared.parts.policies.length === 0) {
    return gateDenial(scope, 'POLICY_MISSING', 'no policy decides for this agent, so the call is denied');
  }
  const standing = standingOf(judgePolicies(prepared, admitted, input), prepared.parts.policies, window);
  // No one is asked to confirm a call that a standing denial refuses anyway.
  if (confirm !== undefined && standing.held?.decision.decision !== 'deny') return confirm;
  if (window !== undefined && windowRelaxedEveryStop(standing, relaxedRefusal))
    return relaxedAllow(scope, window, standing, relaxedRefusal);
  return policyDecision(scope, window, standing, relaxedRefusal);
}

/** The observe window `now` falls in (starts inclusive, ends exclusive); a denials window before an approvals one. */
export function activeWindow(windows: readonly ObserveWindow[], now: Date): ObserveWindow | undefined {
  const t = now.getTime();
  const open = windows.filter((w) => {
    const starts = parseDateTime(w.starts);
    const ends = parseDateTime(w.ends);
    return starts !== undefined && ends !== undefined && starts <= t && t < ends;
  });
  return open.find((w) => w.relax === 'denials') ?? open[0];
}
