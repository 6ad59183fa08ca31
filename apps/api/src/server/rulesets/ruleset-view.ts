// A rule set as the rule-set routes answer it: the version's view (ruleset-versions.ts) with how many pins
// are behind, how often it ran lately, and every version of the set.
import type { AppContext } from '../context.ts';
import { RUNS_WINDOW_DAYS } from '../state/ruleset-runs/model.ts';
import { type RulesetVersionView, readRulesetVersion, rulesetVersions } from './ruleset-versions.ts';

/** The set at `versionId` (its active version when left out), with its counts and versions. */
export async function fullView(ctx: AppContext, id: string, versionId?: number) {
  const { view } = await readRulesetVersion(ctx, id, versionId);
  return withCounts(ctx, view);
}

export async function withCounts(ctx: AppContext, view: RulesetVersionView) {
  const since = new Date(ctx.now().getTime() - RUNS_WINDOW_DAYS * 86_400_000);
  return {
    ...view,
    newer_pins: view.pins.filter((p) => p.newer).length,
    runs_last_30_days: await ctx.state.rulesetRunsSince(view.id, since),
    versions: await rulesetVersions(ctx, view.id),
  };
}

export type RulesetFullView = Awaited<ReturnType<typeof withCounts>>;
