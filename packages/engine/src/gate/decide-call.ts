// The gate: one agent call decided from the agent's parts, already loaded and compiled (DESIGN.md,
// "The gate"). In order: the catalogue, the delegation (actions, validity), the amount, the spending
// limit, the rulebook and tool check, then the policy or every pinned policy of the rule set (deny
// anywhere wins, then require_approval). Pure: the caller records and answers.
import { compareDecimal } from '../conditions/decimal.ts';
import type { Delegation } from '../documents/agent.ts';
import { parseDateTime } from '../documents/values.ts';
import type { CompiledPolicy } from '../policy/compile.ts';
import { compileTool } from '../policy/compile.ts';
import { type AgentNotice, type DisclosureLevel, discloseToAgent, evaluatePolicy, type PolicyDecision } from '../policy/evaluate.ts';
import { matchesAction } from '../policy/pattern.ts';
import { INVALID_AMOUNT } from '../policy/tool.ts';
import type { Member } from '../policy/types.ts';
import type { Catalogue } from '../rulebook/catalogue.ts';
import type { SessionCall } from '../rulebook/check.ts';
import { layOverlay } from '../rulebook/overlay.ts';
import { checkTool } from '../rulebook/tool-check.ts';
import type { CatalogueOverlay, Rulebook } from '../rulebook/types.ts';

export type GateDecisionKind = 'allow' | 'deny' | 'require_approval' | 'confirm';

/** Codes the gate itself decides with, before (or instead of) the policy. */
export const GATE_CODES = {
  TOOL_UNKNOWN: 'The catalogue holds no tool of that name.',
  DELEGATION_ACTION: "The tool's action is outside the delegation's action patterns.",
  DELEGATION_EXPIRED: "The delegation's valid_until has passed (or ends before anyone could approve).",
  INVALID_TOOL_CONFIGURATION: "The tool's amount mapping is itself invalid.",
  INVALID_AMOUNT: 'The amount (or its currency) is present but not an accepted value.',
  DELEGATION_SPENDING_LIMIT:
    'The delegation has a spending limit and the call is over it, has no amount, is in another currency, or its tool has no amount mapping.',
  CONFIRMATION_REQUIRED: 'A person must confirm the call (send it again with confirmed: true).',
  POLICY_MISSING: 'No policy decides for the agent (its policy or rule set has none that loads).',
} as const;

/** One policy judging the call: its document id and the version that ran. */
export interface GatePolicy {
  document: string;
  sequence: number;
  policy: CompiledPolicy;
}

export interface GateCall {
  tool: string;
  arguments: unknown;
  /** This session's earlier allowed calls, oldest first. */
  history?: readonly SessionCall[];
  contexts?: Record<string, unknown>;
  confirmed?: boolean;
}

export interface DecideCallInput {
  catalogue: Catalogue;
  /** The agent's rulebook and the overlay its sheet lays on the catalogue, when it names one. */
  rulebook?: Rulebook;
  overlay?: CatalogueOverlay;
  /** The agent's policy, or every policy its rule set pins (in pin order). */
  policies: readonly GatePolicy[];
  delegation: Delegation;
  members: readonly Member[];
  defaultApprovalTtlSeconds?: number;
  disclosure?: DisclosureLevel;
  now: Date;
  call: GateCall;
}

export interface GateApproval {
  approvers: string[];
  ttl_seconds: number;
  expires_at: string;
  /** The policy document and version the request is bound to. */
  policy: { document: string; sequence: number };
  description: string | null;
}

/** What an agent is told: the decision and, by disclosure level, the code, rule and words. */
export interface GateNotice {
  decision: GateDecisionKind;
  code?: string | null;
  rule?: string | null;
  description?: string;
  confirmation?: string;
  amount?: AgentNotice['amount'];
  conditions?: AgentNotice['conditions'];
}

export interface GateDecision {
  decision: GateDecisionKind;
  rule: string | null;
  code: string | null;
  /** A sentence for people (never an argument value). */
  summary: string;
  /** What the agent is told, at its disclosure level. */
  notice: GateNotice;
  action: string | null;
  amount: string | null;
  currency: string | null;
  /** The policies' decisions, in the order given (empty when the gate decided before the policy). */
  policies: { document: string; sequence: number; decision: PolicyDecision }[];
  approval: GateApproval | null;
  /** The words a person is asked, for a confirm decision. */
  confirmation: string | null;
}

/**
 * Decides one call.
 *
 * @example
 * decideCall({ catalogue, policies: [{ document: 'policies/refunds.policy.json', sequence: 1, policy }],
 *   delegation: { actions: ['refund.issue'] }, members, now, call: { tool: 'issue_refund', arguments: { amount: '500' } } })
 * // { decision: 'require_approval', rule: 'refund-approval', approval: { approvers: [...], ... }, ... }
 */
export function decideCall(input: DecideCallInput): GateDecision {
  const { call, delegation, now } = input;
  const level = input.disclosure ?? 'rule';
  const entry = input.catalogue.tools.find((t) => t.name === call.tool);
  const base = { action: entry?.action ?? null, amount: null as string | null, currency: null as string | null };
  const gate = (decision: GateDecisionKind, code: string, rule: string | null, summary: string, confirmation: string | null = null) =>
    gateDecision(base, decision, code, rule, summary, confirmation, level);

  if (entry === undefined)
    return gate('deny', 'TOOL_UNKNOWN', null, `the catalogue holds no tool named ${call.tool}, so the call is denied`);
  if (!delegation.actions.some((p) => matchesAction(p, entry.action))) {
    return gate('deny', 'DELEGATION_ACTION', null, `the delegation does not cover the action ${entry.action}, so the call is denied`);
  }
  const validUntil = delegation.valid_until === undefined ? undefined : parseDateTime(delegation.valid_until);
  if (delegation.valid_until !== undefined && (validUntil === undefined || validUntil <= now.getTime())) {
    return gate('deny', 'DELEGATION_EXPIRED', null, 'the delegation is no longer valid, so the call is denied');
  }

  const tool = compileTool(
    entry.amount === undefined
      ? { name: entry.name, action: entry.action }
      : { name: entry.name, action: entry.action, amount: entry.amount },
  );
  if (!tool.valid) {
    return gate('deny', 'INVALID_TOOL_CONFIGURATION', null, `${entry.name}'s amount mapping is invalid, so every call is denied`);
  }
  const amount = tool.readAmount(call.arguments);
  if (amount === INVALID_AMOUNT) {
    return gate('deny', 'INVALID_AMOUNT', null, 'the amount (or its currency) is present but not an accepted value, so the call is denied');
  }
  if (amount !== undefined) {
    base.amount = amount;
    base.currency = tool.currency ?? null;
  }
  const limit = delegation.spending_limit;
  if (limit !== undefined) {
    const why =
      tool.currency === undefined
        ? `${entry.name} has no amount mapping`
        : amount === undefined
          ? 'the call has no amount'
          : tool.currency !== limit.currency
            ? `the amount is in ${tool.currency}, not the limit's ${limit.currency}`
            : compareDecimal(amount, limit.amount) > 0
              ? `the amount is over the limit of ${limit.amount} ${limit.currency}`
              : undefined;
    if (why !== undefined) {
      return gate('deny', 'DELEGATION_SPENDING_LIMIT', null, `the delegation has a spending limit and ${why}, so the call is denied`);
    }
  }

  if (input.rulebook !== undefined || input.overlay !== undefined) {
    const catalogue = input.overlay ? layOverlay(input.catalogue, input.overlay) : input.catalogue;
    const verdict = checkTool({
      rulebook: input.rulebook ?? { format: 'tollgate/rulebook@1', flows: [] },
      catalogue,
      call: { tool: call.tool, arguments: call.arguments },
      contexts: call.contexts,
      history: call.history,
      confirmed: call.confirmed,
    });
    if (verdict.verdict === 'refuse') return gate('deny', verdict.code, verdict.rule, verdict.reason);
    if (verdict.verdict === 'confirm') {
      return gate(
        'confirm',
        'CONFIRMATION_REQUIRED',
        verdict.rule,
        `${entry.name} needs a person's confirmation: ${verdict.confirmation}`,
        verdict.confirmation,
      );
    }
  } else if (entry.confirmation !== undefined && call.confirmed !== true) {
    return gate(
      'confirm',
      'CONFIRMATION_REQUIRED',
      entry.name,
      `${entry.name} needs a person's confirmation: ${entry.confirmation}`,
      entry.confirmation,
    );
  }

  if (input.policies.length === 0) return gate('deny', 'POLICY_MISSING', null, 'no policy decides for this agent, so the call is denied');
  const options = {
    members: input.members,
    defaultApprovalTtlSeconds: input.defaultApprovalTtlSeconds,
    delegationValidUntil: validUntil === undefined ? undefined : new Date(validUntil),
    now,
  };
  const policies = input.policies.map((p) => ({
    document: p.document,
    sequence: p.sequence,
    decision: evaluatePolicy(p.policy, tool, call.arguments, options),
  }));
  const winner =
    policies.find((p) => p.decision.decision === 'deny') ??
    policies.find((p) => p.decision.decision === 'require_approval') ??
    (policies[0] as (typeof policies)[number]);
  const d = winner.decision;
  const notice: GateNotice = { ...discloseToAgent(d, level) };
  const summary = policies.length > 1 ? `${winner.document}: ${d.explanation.summary}` : d.explanation.summary;
  let approval: GateApproval | null = null;
  if (d.decision === 'require_approval' && d.approval) {
    approval = {
      approvers: d.approvers ?? [],
      ttl_seconds: d.approval.ttl_seconds,
      expires_at: d.approval.expires_at,
      policy: { document: winner.document, sequence: winner.sequence },
      description: d.explanation.rule?.description ?? d.explanation.summary,
    };
  }
  return {
    ...base,
    decision: d.decision,
    rule: d.rule,
    code: d.code,
    summary,
    notice,
    policies,
    approval,
    confirmation: null,
  };
}

function gateDecision(
  base: { action: string | null; amount: string | null; currency: string | null },
  decision: GateDecisionKind,
  code: string,
  rule: string | null,
  summary: string,
  confirmation: string | null,
  level: DisclosureLevel,
): GateDecision {
  const notice: GateNotice = { decision };
  if (confirmation !== null) notice.confirmation = confirmation;
  if (level !== 'none') {
    notice.code = code;
    notice.rule = rule;
    notice.description = summary;
  }
  return { ...base, decision, rule, code, summary, notice, policies: [], approval: null, confirmation };
}
