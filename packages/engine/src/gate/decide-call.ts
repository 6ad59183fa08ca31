// The gate: one agent call decided from the agent's parts, already loaded and compiled (DESIGN.md,
// "The gate"). In order: the rule set's status (archived, draft, not approved), the catalogue, the
// delegation (actions, validity), the amount, the spending limit, every rulebook's tool check (the agent's
// and the rule set's pinned sheets and Colang: refuse anywhere wins), then the policy or every pinned policy
// (deny anywhere wins), then a confirmation the rulebooks asked for, then require_approval. Inside an observe window, rules' decisions are
// relaxed (never a guard rule, the hard limits or approver-count denials). Pure: the caller records and answers.
// decidePrepared decides from an agent's parts prepared once (prepare-gate.ts); decideCall prepares, then decides.
import { compareDecimal } from '../conditions/decimal.ts';
import type { Delegation } from '../documents/agent.ts';
import type { RuleStatus } from '../documents/ruleset.ts';
import type { ObserveWindow } from '../documents/settings.ts';
import { parseDateTime } from '../documents/values.ts';
import type { CompiledPolicy } from '../policy/compile.ts';
import { type AgentNotice, type DisclosureLevel, discloseToAgent, evaluatePolicy, type PolicyDecision } from '../policy/evaluate.ts';
import { INVALID_AMOUNT } from '../policy/tool.ts';
import type { Member } from '../policy/types.ts';
import type { Catalogue } from '../rulebook/catalogue.ts';
import type { SessionCall } from '../rulebook/check.ts';
import { checkTool } from '../rulebook/tool-check.ts';
import type { CatalogueOverlay, Rulebook } from '../rulebook/types.ts';
import { openWindow, type PreparedGate, prepareGate } from './prepare-gate.ts';

export type GateDecisionKind = 'allow' | 'deny' | 'require_approval' | 'confirm';

/** Codes the gate itself decides with, before (or instead of) the policy. */
export const GATE_CODES = {
  TOOL_UNKNOWN: 'The catalogue holds no tool of that name.',
  TOOL_NOT_AUTHORIZED:
    "The tool's binding (its action and amount mapping) is not the one an owner or admin authorized: it is new or changed since, and an owner or admin must authorize the tool before its calls run.",
  DELEGATION_ACTION: "The tool's action is outside the delegation's action patterns.",
  DELEGATION_EXPIRED: "The delegation's valid_until has passed (or ends before anyone could approve).",
  INVALID_TOOL_CONFIGURATION: "The tool's amount mapping is itself invalid.",
  INVALID_AMOUNT: 'The amount (or its currency) is present but not an accepted value.',
  DELEGATION_SPENDING_LIMIT:
    'The delegation has a spending limit and the call is over it, has no amount, is in another currency, or its tool has no amount mapping.',
  CONFIRMATION_REQUIRED: 'A person must confirm the call (send it again with confirmed: true).',
  POLICY_MISSING: 'No policy decides for the agent (its policy or rule set has none that loads).',
  RULESET_ARCHIVED: "The agent's rule set is archived (the explanation names its replacement, if any).",
  RULESET_NOT_ACTIVE: "The agent's rule set (or the version it names) is a draft: only test and active sets run.",
  RULESET_DISABLED: "The agent's rule set is disabled.",
  RULESET_RULE_UNUSABLE: 'A rule the set pins has since been disabled or archived, so the set runs nothing.',
  RULESET_NOT_APPROVED: "Settings allow only approved rule sets, and the agent's set (at the version it runs) is not on the approved list.",
} as const;

/**
 * Codes an observe window never relaxes (with the gate's own hard limits, decided before any rule, and a
 * policy rule with guard: true).
 */
export const NEVER_RELAXED = [
  'INVALID_AMOUNT',
  'INVALID_TOOL_CONFIGURATION',
  'TOO_MANY_APPROVERS',
  'NO_ELIGIBLE_APPROVER',
  'DELEGATION_EXPIRED',
  'DELEGATION_SPENDING_LIMIT',
  'DELEGATION_ACTION',
  'TOOL_UNKNOWN',
  'TOOL_NOT_AUTHORIZED',
] as const;

/** A rulebook a rule set pins (beside the agent's own), with the overlay its sheet lays on the catalogue. */
export interface GateRulebook {
  document: string;
  sequence: number;
  rulebook: Rulebook;
  overlay?: CatalogueOverlay;
}

/** The agent's rule set, as far as the gate judges it before any rule: status, version, replacement. */
export interface GateRuleset {
  document: string;
  /** The rule-set version that runs (the one the agent names, or the active one). */
  version: number;
  status: RuleStatus;
  /** The version was saved after the active one and never activated: a draft whatever the set's status. */
  draftVersion?: boolean;
  replaced_by?: string;
  /** Pinned rules disabled or archived since they were pinned: while one is, the set runs nothing. */
  unusableRules?: readonly string[];
}

/** A decision an observe window relaxed: the window and what the decision would have been. */
export interface GateObserved {
  window: string;
  would_have_been: GateDecisionKind;
}

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
  /** Every sheet and Colang document the agent's rule set pins (each checked with its own overlay). */
  rulebooks?: readonly GateRulebook[];
  /** The agent's policy, or every policy its rule set pins (in pin order). */
  policies: readonly GatePolicy[];
  /** The agent's rule set, when it names one instead of a policy. */
  ruleset?: GateRuleset;
  /** The approved rule sets, when settings allow only those (approved_rulesets_only: true). */
  approvedRulesets?: readonly string[];
  /** The settings' observe windows: inside one, decisions are recorded but relaxed. */
  observeWindows?: readonly ObserveWindow[];
  /**
   * The catalogue tools whose binding is not the authorized one (docs/catalogue.md, "The authorized
   * binding"): the host keeps the authorizations, the gate only refuses these tools' calls.
   */
  unauthorizedTools?: readonly string[];
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
  /** For a call an observe window relaxed: the window and the decision it would have had. */
  observed?: GateObserved;
  /** For an archived rule set: the rule set that replaces it. */
  replaced_by?: string;
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
  /** Set when an observe window relaxed the decision (decision is then the relaxed one). */
  observed?: GateObserved;
}

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

/** What varies per call: the call, the decision time and the members approvers are judged from. */
export interface PreparedCallInput {
  call: GateCall;
  members: readonly Member[];
  now: Date;
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
  const { call, now } = input;
  const parts = prepared.parts;
  const delegation = parts.delegation;
  const level = parts.disclosure ?? 'rule';
  const prep = prepared.tools.get(call.tool);
  const entry = prep?.entry;
  const base = { action: entry?.action ?? null, amount: null as string | null, currency: null as string | null };

  const refusal = prepared.rulesetRefusal;
  if (refusal !== undefined) {
    const d = gateDecision(level, base, refusal.decision, refusal.code, null, refusal.summary);
    if (refusal.replaced_by !== undefined) d.notice.replaced_by = refusal.replaced_by;
    return d;
  }

  if (prep === undefined || entry === undefined)
    return gateDecision(level, base, 'deny', 'TOOL_UNKNOWN', null, `the catalogue holds no tool named ${call.tool}, so the call is denied`);
  if (!prep.authorized) {
    return gateDecision(level, base, 'deny', 'TOOL_NOT_AUTHORIZED', null, notAuthorizedSummary(entry.name));
  }
  if (!prep.delegated) {
    return gateDecision(
      level,
      base,
      'deny',
      'DELEGATION_ACTION',
      null,
      `the delegation does not cover the action ${entry.action}, so the call is denied`,
    );
  }
  const t = now.getTime();
  if (prepared.hasValidUntil && (prepared.validUntil === undefined || prepared.validUntil <= t)) {
    return gateDecision(level, base, 'deny', 'DELEGATION_EXPIRED', null, 'the delegation is no longer valid, so the call is denied');
  }

  const tool = prep.compiled;
  if (!tool.valid) {
    return gateDecision(
      level,
      base,
      'deny',
      'INVALID_TOOL_CONFIGURATION',
      null,
      `${entry.name}'s amount mapping is invalid, so every call is denied`,
    );
  }
  const amount = tool.readAmount(call.arguments);
  if (amount === INVALID_AMOUNT) {
    return gateDecision(
      level,
      base,
      'deny',
      'INVALID_AMOUNT',
      null,
      'the amount (or its currency) is present but not an accepted value, so the call is denied',
    );
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
      return gateDecision(
        level,
        base,
        'deny',
        'DELEGATION_SPENDING_LIMIT',
        null,
        `the delegation has a spending limit and ${why}, so the call is denied`,
      );
    }
  }

  // From here on, rules decide: an observe window may relax what they say.
  const window = prepared.windows.length === 0 ? undefined : openWindow(prepared.windows, t);
  const relaxDenials = window?.relax === 'denials';
  /** The first rulebook refusal a denials window relaxed: the decision it would have been. */
  let relaxedRefusal: GateDecision | undefined;

  // The agent's own rulebook, then every rulebook its rule set pins: a refusal anywhere wins. A confirmation
  // waits for the policies: it is asked only of a call no standing denial refuses (deny anywhere wins).
  let confirm: GateDecision | undefined;
  const rulebooks = prepared.rulebooks;
  if (rulebooks.length > 0) {
    const toolCall = { tool: call.tool, arguments: call.arguments };
    for (let i = 0; i < rulebooks.length; i++) {
      const verdict = checkTool({
        rulebook: rulebooks[i] as Rulebook,
        catalogue: prep.catalogues[i] as Catalogue,
        call: toolCall,
        contexts: call.contexts,
        history: call.history,
        confirmed: call.confirmed,
      });
      if (verdict.verdict === 'refuse') {
        const refused = gateDecision(level, base, 'deny', verdict.code, verdict.rule, verdict.reason);
        if (!relaxDenials) return refused;
        relaxedRefusal ??= refused;
      } else if (verdict.verdict === 'confirm' && confirm === undefined) {
        confirm = gateDecision(
          level,
          base,
          'confirm',
          'CONFIRMATION_REQUIRED',
          verdict.rule,
          `${entry.name} needs a person's confirmation: ${verdict.confirmation}`,
          verdict.confirmation,
        );
      }
    }
  } else if (entry.confirmation !== undefined && call.confirmed !== true) {
    confirm = gateDecision(
      level,
      base,
      'confirm',
      'CONFIRMATION_REQUIRED',
      entry.name,
      `${entry.name} needs a person's confirmation: ${entry.confirmation}`,
      entry.confirmation,
    );
  }

  if (parts.policies.length === 0)
    return gateDecision(level, base, 'deny', 'POLICY_MISSING', null, 'no policy decides for this agent, so the call is denied');
  const options = {
    members: input.members,
    defaultApprovalTtlSeconds: parts.defaultApprovalTtlSeconds,
    delegationValidUntil: prepared.validUntilDate,
    now,
  };
  const policies: GateDecision['policies'] = [];
  for (let i = 0; i < parts.policies.length; i++) {
    const p = parts.policies[i] as GatePolicy;
    policies.push({ document: p.document, sequence: p.sequence, decision: evaluatePolicy(p.policy, tool, call.arguments, options) });
  }
  const original = policies[pickPolicy(policies, undefined, false, false)] as GateDecision['policies'][number];
  // What still holds in an observe window: denials it does not relax, and approvals it cannot.
  const heldAt =
    window === undefined ? pickPolicy(policies, undefined, false, true) : pickPolicy(policies, parts.policies, relaxDenials, true);
  const held = heldAt < 0 ? undefined : policies[heldAt];
  // No one is asked to confirm a call that a standing denial refuses anyway.
  if (confirm !== undefined && held?.decision.decision !== 'deny') return confirm;

  if (window !== undefined && held === undefined && (original.decision.decision !== 'allow' || relaxedRefusal !== undefined)) {
    // Every rule that would have stopped the call is relaxed: it runs, and the answer says what it would have been.
    const was: GateDecisionKind = relaxedRefusal !== undefined ? 'deny' : original.decision.decision;
    const observed: GateObserved = { window: window.name, would_have_been: was };
    const rule = relaxedRefusal?.rule ?? original.decision.rule;
    const code = relaxedRefusal?.code ?? original.decision.code;
    const why = relaxedRefusal?.summary ?? original.decision.explanation.summary;
    const summary = `observe window ${window.name} relaxed the call: it would have been ${was} (${why}), so it is allowed`;
    const notice: GateNotice = { decision: 'allow', observed };
    if (level !== 'none') {
      notice.code = code;
      notice.rule = rule;
      notice.description = summary;
    }
    return { ...base, decision: 'allow', rule, code, summary, notice, policies, approval: null, confirmation: null, observed };
  }

  const chosen = held ?? original;
  const d = chosen.decision;
  const notice: GateNotice = discloseToAgent(d, level);
  const summary = policies.length > 1 ? `${chosen.document}: ${d.explanation.summary}` : d.explanation.summary;
  let approval: GateApproval | null = null;
  if (d.decision === 'require_approval' && d.approval) {
    approval = {
      approvers: d.approvers ?? [],
      ttl_seconds: d.approval.ttl_seconds,
      expires_at: d.approval.expires_at,
      policy: { document: chosen.document, sequence: chosen.sequence },
      description: d.explanation.rule?.description ?? d.explanation.summary,
    };
  }
  const result: GateDecision = {
    action: base.action,
    amount: base.amount,
    currency: base.currency,
    decision: d.decision,
    rule: d.rule,
    code: d.code,
    summary,
    notice,
    policies,
    approval,
    confirmation: null,
  };
  const was: GateDecisionKind = relaxedRefusal !== undefined ? 'deny' : original.decision.decision;
  if (window !== undefined && was !== d.decision) {
    // Partly relaxed: a guarded approval (or an unrelaxable denial) still stands over what was relaxed.
    result.observed = { window: window.name, would_have_been: was };
    notice.observed = result.observed;
  }
  return result;
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

/**
 * The policy decision that stands: the first deny, else the first require_approval, else (unless `held`
 * is asked for, which gives -1) the first. With `judging` (an observe window is open), only decisions the
 * window leaves standing count: denials it does not relax, approvals of guard rules.
 */
function pickPolicy(
  policies: GateDecision['policies'],
  judging: readonly GatePolicy[] | undefined,
  relaxDenials: boolean,
  held: boolean,
): number {
  let approval = -1;
  for (let i = 0; i < policies.length; i++) {
    const d = (policies[i] as GateDecision['policies'][number]).decision;
    if (d.decision === 'deny') {
      if (judging === undefined || !relaxDenials || (NEVER_RELAXED as readonly string[]).includes(d.code ?? '')) return i;
    } else if (d.decision === 'require_approval' && approval < 0) {
      if (judging === undefined || isGuarded((judging[i] as GatePolicy).policy, d.rule)) approval = i;
    }
  }
  return approval >= 0 || held ? approval : 0;
}

/** Whether the policy rule that held the call is marked guard: true (never relaxed). */
function isGuarded(policy: CompiledPolicy, rule: string | null): boolean {
  if (rule === null) return false;
  return policy.rules.find((r) => r.id === rule)?.source.guard === true;
}

/** A decision the gate makes itself (no policy judged). A plain function, not a closure made per call. */
/** Why a tool whose binding is not authorized runs no call; says who can mend it. */
export function notAuthorizedSummary(tool: string): string {
  return `${tool}'s binding (its action and amount mapping) is not authorized since it was added or changed: an owner or admin must authorize the tool before its calls run, so the call is denied`;
}

function gateDecision(
  level: DisclosureLevel,
  base: { action: string | null; amount: string | null; currency: string | null },
  decision: GateDecisionKind,
  code: string,
  rule: string | null,
  summary: string,
  confirmation: string | null = null,
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
