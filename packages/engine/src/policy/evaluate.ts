// evaluatePolicy: the whole policy decision for one call, as the CLI and API report it: the policy's
// outcome, approvers resolved at decision time, the approval lifetime, and the explanation.
import { DEFAULT_APPROVERS, eligibleApprovers, MAX_ELIGIBLE_APPROVERS } from './approvers.ts';
import type { CompiledPolicy, PolicyOutcome } from './compile.ts';
import { type ExplainedAmount, type Explanation, explainOutcome } from './explanation.ts';
import type { CompiledTool } from './tool.ts';
import type { Effect, Member } from './types.ts';

/** The organisation's default approval lifetime when neither rule nor caller gives one: 24 hours. */
export const DEFAULT_APPROVAL_TTL_SECONDS = 86_400;

export interface EvaluateOptions {
  /** Members at decision time; without them approvers are not resolved (`approvers: null`). */
  members?: readonly Member[];
  /** The organisation's default approval lifetime, used when the deciding rule sets none. */
  defaultApprovalTtlSeconds?: number;
  /** When the agent's delegation stops being valid; an approval never outlives it. */
  delegationValidUntil?: Date;
  /** The decision time (tests pass a fixed one). */
  now?: Date;
}

export type DecisionCode =
  | PolicyOutcome['code']
  | 'TOO_MANY_APPROVERS'
  | 'NO_ELIGIBLE_APPROVER'
  | 'NOT_ENOUGH_APPROVERS'
  | 'DELEGATION_EXPIRED';

export interface PolicyDecision {
  decision: Effect;
  rule: string | null;
  code: DecisionCode;
  /** Eligible approvers' IDs for a held call; null when no members were given or nothing is held. */
  approvers: string[] | null;
  /** For a held call: how long the request stays open, until when, and how many distinct approvals it needs. */
  approval: { ttl_seconds: number; expires_at: string; quorum: number } | null;
  explanation: Explanation;
}

/**
 * Decides a call and explains it.
 *
 * @example
 * evaluatePolicy(policy, compileTool(refundTool), { amount: '500' }, { members })
 * // { decision: 'require_approval', rule: 'refund-approval', code: null, approvers: [...], ... }
 */
export function evaluatePolicy(policy: CompiledPolicy, tool: CompiledTool, args: unknown, options: EvaluateOptions = {}): PolicyDecision {
  const outcome = policy.decide(tool, args);
  const explanation = explainOutcome(policy, tool, args, outcome);
  const base = {
    decision: outcome.decision,
    rule: outcome.rule,
    code: outcome.code as DecisionCode,
    approvers: null,
    approval: null,
    explanation,
  };
  if (outcome.decision !== 'require_approval') return base;

  const rule = outcome.rule === null ? undefined : policy.rules.find((r) => r.id === outcome.rule);
  const now = options.now ?? new Date();
  let ttl = rule?.source.approval_ttl_seconds ?? options.defaultApprovalTtlSeconds ?? DEFAULT_APPROVAL_TTL_SECONDS;
  if (options.delegationValidUntil) {
    ttl = Math.min(ttl, Math.floor((options.delegationValidUntil.getTime() - now.getTime()) / 1000));
  }
  if (ttl <= 0) {
    return refused(base, 'DELEGATION_EXPIRED', 'the delegation ends before anyone could approve, so the call is denied');
  }
  const quorum = rule?.source.approvers?.quorum ?? 1;
  const approval = { ttl_seconds: ttl, expires_at: new Date(now.getTime() + ttl * 1000).toISOString(), quorum };
  if (!options.members) return { ...base, approval };

  const eligible = eligibleApprovers(rule?.source.approvers ?? DEFAULT_APPROVERS, options.members);
  if (eligible.length > MAX_ELIGIBLE_APPROVERS) {
    return refused(
      base,
      'TOO_MANY_APPROVERS',
      `${eligible.length} people would be eligible to approve, over the limit of ${MAX_ELIGIBLE_APPROVERS}; list fewer roles or explicit users`,
    );
  }
  if (eligible.length === 0) {
    return refused(
      base,
      'NO_ELIGIBLE_APPROVER',
      "nobody eligible can approve (a role able to approve, listed, with an active signing identity and a person's key), so the call is denied",
    );
  }
  if (eligible.length < quorum) {
    return refused(
      base,
      'NOT_ENOUGH_APPROVERS',
      `a quorum of ${quorum} approvals is needed and only ${eligible.length} ${eligible.length === 1 ? 'person is' : 'people are'} eligible, so the call is denied`,
    );
  }
  if (quorum > 1) {
    // The explanation says what a quorum asks, so the agent and the approvers read it where they read the rule.
    const summary = `${base.explanation.summary}; it runs once ${quorum} of the ${eligible.length} eligible approvers have approved`;
    return { ...base, approvers: eligible, approval, explanation: { ...base.explanation, summary } };
  }
  return { ...base, approvers: eligible, approval };
}

function refused(base: PolicyDecision, code: DecisionCode, why: string): PolicyDecision {
  return {
    ...base,
    decision: 'deny',
    code,
    approvers: null,
    approval: null,
    explanation: { ...base.explanation, summary: `${base.explanation.summary}; held for approval, but ${why}` },
  };
}

/** How much of a decision an agent is told (docs/policy.md, "Explanations and disclosure"). */
export type DisclosureLevel = 'none' | 'rule' | 'conditions';

export interface AgentNotice {
  decision: Effect;
  code?: DecisionCode;
  rule?: string | null;
  description?: string;
  amount?: ExplainedAmount;
  conditions?: { path: string; operator: string; operand: unknown; for?: 'all' | 'any' }[];
}

/**
 * What an agent is told: `none` the decision only; `rule` (the default level) the rule and its
 * description; `conditions` also the deciding rule's thresholds and conditions.
 */
export function discloseToAgent(decision: PolicyDecision, level: DisclosureLevel = 'rule'): AgentNotice {
  const notice: AgentNotice = { decision: decision.decision };
  if (level === 'none') return notice;
  notice.code = decision.code;
  notice.rule = decision.rule;
  const rule = decision.explanation.rule;
  if (rule?.description !== undefined) notice.description = rule.description;
  if (level === 'conditions' && rule) {
    if (rule.amount) notice.amount = rule.amount;
    notice.conditions = rule.conditions.map(({ path, operator, operand, for: f }) =>
      f ? { path, operator, operand, for: f } : { path, operator, operand },
    );
  }
  return notice;
}
