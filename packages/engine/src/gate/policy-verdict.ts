// The policies' part of a decision: every policy judges the call, the decision that stands is picked (deny
// anywhere wins, then require_approval), and an observe window relaxes what it may: never a guard rule's
// approval nor a denial NEVER_RELAXED names.
import type { ObserveWindow } from '../documents/settings.ts';
import type { CompiledPolicy } from '../policy/compile.ts';
import { discloseToAgent, evaluatePolicy, type PolicyDecision } from '../policy/evaluate.ts';
import type { DecisionScope } from './gate-decision.ts';
import type {
  GateApproval,
  GateDecision,
  GateDecisionKind,
  GateNotice,
  GateObserved,
  GatePolicy,
  PreparedCallInput,
} from './gate-types.ts';
import type { AdmittedCall } from './hard-limits.ts';
import type { PreparedGate } from './prepare-gate.ts';

type JudgedPolicy = GateDecision['policies'][number];

/**
 * Codes an observe window never relaxes (with the gate's own hard limits, decided before any rule, and a
 * policy rule with guard: true).
 */
export const NEVER_RELAXED = [
  'INVALID_AMOUNT',
  'INVALID_TOOL_CONFIGURATION',
  'TOO_MANY_APPROVERS',
  'NO_ELIGIBLE_APPROVER',
  'NOT_ENOUGH_APPROVERS',
  'DELEGATION_EXPIRED',
  'DELEGATION_SPENDING_LIMIT',
  'DELEGATION_ACTION',
  'TOOL_UNKNOWN',
  'TOOL_NOT_AUTHORIZED',
  'TOOL_DEFINITION_CHANGED',
] as const;

/** Every policy's decision on the call, in the order the agent's parts give them. */
export function judgePolicies(prepared: PreparedGate, admitted: AdmittedCall, input: PreparedCallInput): JudgedPolicy[] {
  const parts = prepared.parts;
  const options = {
    members: input.members,
    defaultApprovalTtlSeconds: parts.defaultApprovalTtlSeconds,
    delegationValidUntil: prepared.validUntilDate,
    now: input.now,
  };
  const policies: JudgedPolicy[] = [];
  for (let i = 0; i < parts.policies.length; i++) {
    const p = parts.policies[i] as GatePolicy;
    policies.push({
      document: p.document,
      sequence: p.sequence,
      decision: evaluatePolicy(p.policy, admitted.tool, input.call.arguments, options),
    });
  }
  return policies;
}

/** Which policy decisions stand: a denial, and an approval (the policy that made it, for its guard). */
interface Standing {
  denial(decision: PolicyDecision): boolean;
  approval(decision: PolicyDecision, policy: GatePolicy): boolean;
}

/** Outside an observe window every denial and every approval stands. */
const EVERY_DECISION: Standing = { denial: () => true, approval: () => true };

/**
 * What an observe window leaves standing: an approval only from a guard rule; under a denials window, a
 * denial only when NEVER_RELAXED names its code.
 */
function standingInWindow(window: ObserveWindow): Standing {
  return {
    denial: (d) => window.relax !== 'denials' || (NEVER_RELAXED as readonly string[]).includes(d.code ?? ''),
    approval: (d, policy) => isGuarded(policy.policy, d.rule),
  };
}

/** The first standing deny, else the first standing require_approval, else -1. */
function firstStanding(policies: readonly JudgedPolicy[], judges: readonly GatePolicy[], standing: Standing): number {
  let approval = -1;
  for (let i = 0; i < policies.length; i++) {
    const d = (policies[i] as JudgedPolicy).decision;
    if (d.decision === 'deny') {
      if (standing.denial(d)) return i;
    } else if (d.decision === 'require_approval' && approval < 0) {
      if (standing.approval(d, judges[i] as GatePolicy)) approval = i;
    }
  }
  return approval;
}

/** Whether the policy rule that held the call is marked guard: true (never relaxed). */
function isGuarded(policy: CompiledPolicy, rule: string | null): boolean {
  if (rule === null) return false;
  return policy.rules.find((r) => r.id === rule)?.source.guard === true;
}

/** The policies' decisions read once: what they decide without a window, and what still holds in it. */
export interface PolicyStanding {
  readonly policies: JudgedPolicy[];
  /** The decision without any window: the first deny, else the first require_approval, else the first. */
  readonly original: JudgedPolicy;
  /** What still holds: outside a window the same as original unless every policy allows; inside, what it cannot relax. */
  readonly held: JudgedPolicy | undefined;
}

export function standingOf(policies: JudgedPolicy[], judges: readonly GatePolicy[], window: ObserveWindow | undefined): PolicyStanding {
  const originalAt = firstStanding(policies, judges, EVERY_DECISION);
  const original = policies[Math.max(originalAt, 0)] as JudgedPolicy;
  const heldAt = window === undefined ? originalAt : firstStanding(policies, judges, standingInWindow(window));
  return { policies, original, held: heldAt < 0 ? undefined : policies[heldAt] };
}

/** Inside a window: something would have stopped the call (a rulebook or a policy), and nothing of it holds. */
export function windowRelaxedEveryStop(standing: PolicyStanding, relaxedRefusal: GateDecision | undefined): boolean {
  return standing.held === undefined && (standing.original.decision.decision !== 'allow' || relaxedRefusal !== undefined);
}

/** Every rule that would have stopped the call is relaxed: it runs, and the answer says what it would have been. */
export function relaxedAllow(
  scope: DecisionScope,
  window: ObserveWindow,
  standing: PolicyStanding,
  relaxedRefusal: GateDecision | undefined,
): GateDecision {
  const { original, policies } = standing;
  const was: GateDecisionKind = relaxedRefusal !== undefined ? 'deny' : original.decision.decision;
  const observed: GateObserved = { window: window.name, would_have_been: was };
  const rule = relaxedRefusal?.rule ?? original.decision.rule;
  const code = relaxedRefusal?.code ?? original.decision.code;
  const why = relaxedRefusal?.summary ?? original.decision.explanation.summary;
  const summary = `observe window ${window.name} relaxed the call: it would have been ${was} (${why}), so it is allowed`;
  const notice: GateNotice = { decision: 'allow', observed };
  if (scope.level !== 'none') {
    notice.code = code;
    notice.rule = rule;
    notice.description = summary;
  }
  return { ...scope.base, decision: 'allow', rule, code, summary, notice, policies, approval: null, confirmation: null, observed };
}

/**
 * The decision that stands (held, else the original), as the agent is told it; when a window relaxed part of
 * it (a guarded approval or an unrelaxable denial still stands over what was relaxed), it says so.
 */
export function policyDecision(
  scope: DecisionScope,
  window: ObserveWindow | undefined,
  standing: PolicyStanding,
  relaxedRefusal: GateDecision | undefined,
): GateDecision {
  const { policies, original } = standing;
  const chosen = standing.held ?? original;
  const d = chosen.decision;
  const notice: GateNotice = discloseToAgent(d, scope.level);
  const summary = policies.length > 1 ? `${chosen.document}: ${d.explanation.summary}` : d.explanation.summary;
  const result: GateDecision = {
    action: scope.base.action,
    amount: scope.base.amount,
    currency: scope.base.currency,
    decision: d.decision,
    rule: d.rule,
    code: d.code,
    summary,
    notice,
    policies,
    approval: approvalRequest(chosen),
    confirmation: null,
  };
  const was: GateDecisionKind = relaxedRefusal !== undefined ? 'deny' : original.decision.decision;
  if (window !== undefined && was !== d.decision) {
    result.observed = { window: window.name, would_have_been: was };
    notice.observed = result.observed;
  }
  return result;
}

/** The approval request a require_approval decision opens, bound to the policy version that made it. */
function approvalRequest(chosen: JudgedPolicy): GateApproval | null {
  const d = chosen.decision;
  if (d.decision !== 'require_approval' || !d.approval) return null;
  return {
    approvers: d.approvers ?? [],
    ttl_seconds: d.approval.ttl_seconds,
    expires_at: d.approval.expires_at,
    quorum: d.approval.quorum,
    policy: { document: chosen.document, sequence: chosen.sequence },
    description: d.explanation.rule?.description ?? d.explanation.summary,
  };
}
