// The rule-set shapes the API answers (apps/api/src/server/routes/rulesets.ts, rule-sets.txt).

export type RuleStatus = 'draft' | 'test' | 'active' | 'disabled' | 'archived';
export type RuleKind = 'policy' | 'sheet' | 'colang';
/** One rule's own result: a held rule waits for a person. */
export type RunResult = 'pass' | 'hold' | 'fail';
/** The set's verdict: it passes only if every rule passes. */
export type RunVerdict = 'pass' | 'fail';
/** What the list asks for: the sets of one status, or all of them. */
export type RulesetListStatus = RuleStatus | 'all';

export interface RulesetPin {
  rule_id: string;
  /** The version pinned; null only in a version stored before pins were resolved, which runs nothing. */
  version_id: number | null;
  /** The version that runs for this pin. */
  used_version: number | null;
  running_version: number | null;
  /** A newer running version of the rule exists than the one pinned. */
  newer: boolean;
  kind: RuleKind;
  status: RuleStatus;
  /** The rule's name: its file name without folder and kind suffix. */
  name: string;
  /** A sheet's or Colang document's leading comment; null for a policy. */
  description: string | null;
  /** Who created the rule. */
  owner: string | null;
}

export interface RulesetVersionInfo {
  version_id: number;
  author: string;
  reason: string;
  created_at: string;
  active: boolean;
  draft: boolean;
}

export interface Ruleset {
  id: string;
  version_id: number;
  active_version: number | null;
  draft: boolean;
  status: RuleStatus;
  replaced_by?: string;
  name: string;
  description?: string;
  tags?: string[];
  pins: RulesetPin[];
  newer_pins: number;
  runs_last_30_days: number;
  versions: RulesetVersionInfo[];
}

export interface RuleRunResult {
  rule_id: string;
  version_id: number;
  pinned: boolean;
  kind: RuleKind;
  result: RunResult;
  decision: string;
  code: string | null;
  rule: string | null;
  summary: string;
}

export interface RulesetRun {
  ruleset: string;
  version_id: number;
  verdict: RunVerdict;
  /** Every rule that did not pass, held ones too. */
  failed: string[];
  /** Of those, the rules that hold the call for a person. */
  held: string[];
  results: RuleRunResult[];
}

/** A call as POST /v1/rulesets/{id}/validate takes it. */
export interface RulesetCall {
  tool: string;
  arguments: unknown;
  history?: { tool: string; arguments?: unknown; result?: unknown }[];
  contexts?: Record<string, unknown>;
  confirmed?: boolean;
}
