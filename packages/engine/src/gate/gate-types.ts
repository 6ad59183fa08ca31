// The gate's types: what a decision is given (the agent's parts and the call) and what it answers. Kept
// apart from the steps (decide-call.ts, prepare-gate.ts) so each step imports them without a cycle.
import type { Code } from '../codes/index.ts';
import type { Delegation } from '../documents/agent.ts';
import type { RuleStatus } from '../documents/ruleset.ts';
import type { ObserveWindow } from '../documents/settings.ts';
import type { CompiledPolicy } from '../policy/compile.ts';
import type { AgentNotice, DisclosureLevel, PolicyDecision } from '../policy/evaluate.ts';
import type { PolicyRevision } from '../policy/revision.ts';
import type { Member } from '../policy/types.ts';
import type { Catalogue } from '../rulebook/catalogue.ts';
import type { SessionCall } from '../rulebook/check.ts';
import type { CatalogueOverlay, Rulebook } from '../rulebook/types.ts';

export type GateDecisionKind = 'allow' | 'deny' | 'require_approval' | 'confirm';

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
  /**
   * Set by an MCP gateway: whether the upstream's definition of the tool (description, schemas) is the one an
   * owner or admin authorized. `changed` denies the call (TOOL_DEFINITION_CHANGED), as an unauthorized binding
   * does; absent, the call did not come through an upstream (docs/mcp.md, "Pinned tool definitions").
   */
  definition?: 'authorized' | 'changed';
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
  /**
   * The highest policy language revision the deciding gateway decides (docs/deploy.md, "the language gate"):
   * a policy above it denies every call (LANGUAGE_REVISION_UNSUPPORTED). Unset, every revision is decided.
   */
  languageRevision?: PolicyRevision;
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
  /** How many distinct approvals the call needs before it runs (approvers.quorum; 1 by default). */
  quorum: number;
  /** The policy document and version the request is bound to. */
  policy: { document: string; sequence: number };
  description: string | null;
}

/** What an agent is told: the decision and, by disclosure level, the code, rule and words. */
export interface GateNotice {
  decision: GateDecisionKind;
  code?: Code | null;
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
  code: Code | null;
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

/** What varies per call: the call, the decision time and the members approvers are judged from. */
export interface PreparedCallInput {
  call: GateCall;
  members: readonly Member[];
  now: Date;
}
