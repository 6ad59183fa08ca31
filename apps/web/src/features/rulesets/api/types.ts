// The rule-set shapes the API answers (apps/api/src/server/routes/rulesets.ts, rule-sets.txt).

export type RuleStatus = 'draft' | 'test' | 'active' | 'disabled' | 'archived';
export type RuleKind = 'policy' | 'sheet' | 'colang';
export type RunResult = 'pass' | 'hold' | 'fail';

export interface RulesetPin {
  rule_id: string;
  /** The version pinned; null follows the rule's running version. */
  version_id: number | null;
  /** The version that runs for this pin now. */
  used_version: number | null;
  running_version: number | null;
  /** A newer running version of the rule exists than the one pinned. */
  newer: boolean;
  kind: RuleKind;
  status: RuleStatus;
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
  verdict: RunResult;
  failed: string[];
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
