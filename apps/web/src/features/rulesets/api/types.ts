// The rule-set shapes the API answers, from the generated schema (GET /v1/rulesets and friends, docs/rulesets.md).
import type { components } from '../../../lib/api/schema';

type Schemas = components['schemas'];

export type Ruleset = Schemas['Ruleset'];
export type RulesetPin = Schemas['RulesetPin'];
export type RulesetVersionInfo = Ruleset['versions'][number];
export type RuleStatus = Ruleset['status'];
export type RuleKind = RulesetPin['kind'];
export type RulesetRun = Schemas['RulesetRun'];
export type RuleRunResult = RulesetRun['results'][number];
/** One rule's own result: a held rule waits for a person. */
export type RunResult = RuleRunResult['result'];
/** The set's verdict: it passes only if every rule passes. */
export type RunVerdict = RulesetRun['verdict'];
/** A call as POST /v1/rulesets/{id}/validate takes it. */
export type RulesetCall = Schemas['RulesetValidate']['call'];
/** What the list asks for: the sets of one status, or all of them. */
export type RulesetListStatus = RuleStatus | 'all';

/** The set's entity tag: its newest version (docs/api.md, preconditions), which a PATCH sends as If-Match. */
export function newestVersion(set: Ruleset): number {
  return set.versions.reduce((newest, v) => Math.max(newest, v.version_id), set.version_id);
}
