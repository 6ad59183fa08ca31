// The gate's decision as it was first written, kept only as the oracle of the differential test
// (decide-prepared.test.ts): every per-call step done per call (linear catalogue search, compileTool,
// layOverlay, date parsing). Never exported from the package; behaviour changes go to decide-call.ts and here.
import type { Code } from '../codes/index.ts';
import { compareDecimal } from '../conditions/decimal.ts';
import { isApprovedVersion } from '../documents/settings.ts';
import { parseDateTime } from '../documents/values.ts';
import type { CompiledPolicy } from '../policy/compile.ts';
import { compileTool } from '../policy/compile.ts';
import { type DisclosureLevel, discloseToAgent, evaluatePolicy } from '../policy/evaluate.ts';
import { matchesAction } from '../policy/pattern.ts';
import { policyRevision } from '../policy/revision.ts';
import { INVALID_AMOUNT } from '../policy/tool.ts';
import { layOverlay } from '../rulebook/overlay.ts';
import { checkTool } from '../rulebook/tool-check.ts';
import type { CatalogueOverlay, Rulebook } from '../rulebook/types.ts';
import {
  activeWindow,
  type DecideCallInput,
  definitionChangedSummary,
  type GateApproval,
  type GateDecision,
  type GateDecisionKind,
  type GateNotice,
  type GateObserved,
  NEVER_RELAXED,
  notAuthorizedSummary,
} from './decide-call.ts';

export function referenceDecideCall(input: DecideCallInput): GateDecision {
  const { call, delegation, now } = input;
  const level = input.disclosure ?? 'rule';
  const entry = input.catalogue.tools.find((t) => t.name === call.tool);
  const base = { action: entry?.action ?? null, amount: null as string | null, currency: null as string | null };
  const gate = (decision: GateDecisionKind, code: Code, rule: string | null, summary: string, confirmation: string | null = null) =>
    gateDecision(base, decision, code, rule, summary, confirmation, level);

  const supported = input.languageRevision;
  const above = supported === undefined ? undefined : input.policies.find((p) => policyRevision(p.policy.document) > supported);
  if (above !== undefined) {
    const summary = `version ${above.sequence} of ${above.document} is policy language revision ${policyRevision(above.policy.document)} and this gateway decides revision ${supported} at most, so the call is denied`;
    return gate('deny', 'LANGUAGE_REVISION_UNSUPPORTED', null, summary);
  }
  const ruleset = input.ruleset;
  if (ruleset !== undefined) {
    if (ruleset.status === 'archived') {
      const d = gate(
        'deny',
        'RULESET_ARCHIVED',
        null,
        ruleset.replaced_by === undefined
          ? `the rule set ${ruleset.document} is archived, so the call is denied`
          : `the rule set ${ruleset.document} is archived and replaced by ${ruleset.replaced_by}, so the call is denied`,
      );
      if (ruleset.replaced_by !== undefined) d.notice.replaced_by = ruleset.replaced_by;
      return d;
    }
    if (ruleset.status === 'disabled') {
      return gate('deny', 'RULESET_DISABLED', null, `the rule set ${ruleset.document} is disabled, so the call is denied`);
    }
    if (ruleset.status === 'draft' || ruleset.draftVersion === true) {
      const what = ruleset.status === 'draft' ? 'is a draft' : `version ${ruleset.version} is a draft`;
      return gate('deny', 'RULESET_NOT_ACTIVE', null, `the rule set ${ruleset.document} ${what}, so the call is denied`);
    }
    if (input.approvedRulesets !== undefined && !isApprovedVersion(input.approvedRulesets, ruleset.document, ruleset.version)) {
      return gate(
        'deny',
        'RULESET_NOT_APPROVED',
        null,
        `only approved rule sets run and version ${ruleset.version} of ${ruleset.document} is not approved, so the call is denied`,
      );
    }
    if (ruleset.unusableRules !== undefined && ruleset.unusableRules.length > 0) {
      return gate(
        'deny',
        'RULESET_RULE_UNUSABLE',
        null,
        `the rule set ${ruleset.document} pins ${ruleset.unusableRules.join(', ')}, since disabled or archived, so the call is denied`,
      );
    }
  }

  if (entry === undefined)
    return gate('deny', 'TOOL_UNKNOWN', null, `the catalogue holds no tool named ${call.tool}, so the call is denied`);
  if (input.unauthorizedTools?.includes(entry.name)) return gate('deny', 'TOOL_NOT_AUTHORIZED', null, notAuthorizedSummary(entry.name));
  if (call.definition === 'changed') return gate('deny', 'TOOL_DEFINITION_CHANGED', null, definitionChangedSummary(entry.name));
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

  // From here on, rules decide: an observe window may relax what they say.
  const window = activeWindow(input.observeWindows ?? [], now);
  const relaxDenials = window?.relax === 'denials';
  /** The first rulebook refusal a denials window relaxed: the decision it would have been. */
  let relaxedRefusal: GateDecision | undefined;

  // The agent's own rulebook, then every rulebook its rule set pins: a refusal anywhere wins, then a confirmation.
  // With no rulebook at all, the catalogue's own declarations are checked all the same (an empty rulebook).
  const books: { rulebook?: Rulebook; overlay?: CatalogueOverlay }[] = [];
  if (input.rulebook !== undefined || input.overlay !== undefined) books.push({ rulebook: input.rulebook, overlay: input.overlay });
  for (const b of input.rulebooks ?? []) books.push({ rulebook: b.rulebook, overlay: b.overlay });
  if (books.length === 0) books.push({});
  let confirm: GateDecision | undefined;
  for (const book of books) {
    const catalogue = book.overlay ? layOverlay(input.catalogue, book.overlay) : input.catalogue;
    const verdict = checkTool({
      rulebook: book.rulebook ?? { format: 'tollgate/rulebook@1', flows: [] },
      catalogue,
      call: { tool: call.tool, arguments: call.arguments },
      contexts: call.contexts,
      history: call.history,
      confirmed: call.confirmed,
    });
    if (verdict.verdict === 'refuse') {
      const refused = gate('deny', verdict.code, verdict.rule, verdict.reason);
      if (!relaxDenials) return refused;
      relaxedRefusal ??= refused;
    } else if (verdict.verdict === 'confirm' && confirm === undefined) {
      confirm = gate(
        'confirm',
        'CONFIRMATION_REQUIRED',
        verdict.rule,
        `${entry.name} needs a person's confirmation: ${verdict.confirmation}`,
        verdict.confirmation,
      );
    }
  }

  if (input.policies.length === 0) return gate('deny', 'POLICY_MISSING', null, 'no policy decides for this agent, so the call is denied');
  const options = {
    members: input.members,
    defaultApprovalTtlSeconds: input.defaultApprovalTtlSeconds,
    delegationValidUntil: validUntil === undefined ? undefined : new Date(validUntil),
    now,
  };
  const judged = input.policies.map((p) => ({
    document: p.document,
    sequence: p.sequence,
    policy: p.policy,
    decision: evaluatePolicy(p.policy, tool, call.arguments, options),
  }));
  const policies = judged.map(({ document, sequence, decision }) => ({ document, sequence, decision }));
  const pick = (list: typeof judged) =>
    list.find((p) => p.decision.decision === 'deny') ??
    list.find((p) => p.decision.decision === 'require_approval') ??
    (list[0] as (typeof list)[number]);
  const original = pick(judged);
  // What still holds in an observe window: denials it does not relax, and approvals it cannot.
  const standing =
    window === undefined
      ? judged
      : judged.filter((p) => {
          const d = p.decision;
          if (d.decision === 'deny') return !relaxDenials || (NEVER_RELAXED as readonly string[]).includes(d.code ?? '');
          if (d.decision === 'require_approval') return isGuarded(p.policy, d.rule);
          return true;
        });
  const held = standing.some((p) => p.decision.decision === 'deny')
    ? pick(standing)
    : standing.find((p) => p.decision.decision === 'require_approval');
  // A confirmation is asked only of a call no standing denial refuses.
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
  const notice: GateNotice = { ...discloseToAgent(d, level) };
  const summary = policies.length > 1 ? `${chosen.document}: ${d.explanation.summary}` : d.explanation.summary;
  let approval: GateApproval | null = null;
  if (d.decision === 'require_approval' && d.approval) {
    approval = {
      approvers: d.approvers ?? [],
      ttl_seconds: d.approval.ttl_seconds,
      expires_at: d.approval.expires_at,
      quorum: d.approval.quorum,
      policy: { document: chosen.document, sequence: chosen.sequence },
      description: d.explanation.rule?.description ?? d.explanation.summary,
    };
  }
  const result: GateDecision = {
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
  const was: GateDecisionKind = relaxedRefusal !== undefined ? 'deny' : original.decision.decision;
  if (window !== undefined && was !== d.decision) {
    // Partly relaxed: a guarded approval (or an unrelaxable denial) still stands over what was relaxed.
    result.observed = { window: window.name, would_have_been: was };
    notice.observed = result.observed;
  }
  return result;
}

/** Whether the policy rule that held the call is marked guard: true (never relaxed). */
function isGuarded(policy: CompiledPolicy, rule: string | null): boolean {
  if (rule === null) return false;
  return policy.rules.find((r) => r.id === rule)?.source.guard === true;
}

function gateDecision(
  base: { action: string | null; amount: string | null; currency: string | null },
  decision: GateDecisionKind,
  code: Code,
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
