// One run of a rule set's version against a call, as the API's validate route and the CLI's `ruleset run`
// both do it: refused for an archived or disabled set or one pinning a rule disabled since, every pinned
// rule judged in parallel, and the run recorded only once it is complete.

import { type RulesetCall, type RulesetRun, RulesetRunError, runRuleset } from '@tollgate/engine';
import { approverMembers } from '../approvals/member-keys-setting.ts';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { loadPinnedRules, readRulesetVersion, workspaceCatalogue } from './ruleset-versions.ts';

/** How long one rule may take, by default. */
export const RULE_TIMEOUT_MS = 10_000;

export async function runRulesetVersion(
  ctx: AppContext,
  id: string,
  call: RulesetCall,
  options: { versionId?: number; timeoutMs?: number } = {},
): Promise<RulesetRun & { ruleset: string; version_id: number }> {
  const { view } = await readRulesetVersion(ctx, id, options.versionId);
  if (view.status === 'archived') {
    const also = view.replaced_by === undefined ? '' : `; use ${view.replaced_by}`;
    throw new ApiError(
      'RULESET_ARCHIVED',
      `${id} is archived${also}`,
      view.replaced_by === undefined ? {} : { replaced_by: view.replaced_by },
    );
  }
  if (view.status === 'disabled') throw new ApiError('RULESET_DISABLED', `${id} is disabled`);
  const unusable = view.pins.filter((p) => p.status === 'disabled' || p.status === 'archived').map((p) => p.rule_id);
  if (unusable.length > 0) {
    throw new ApiError('RULESET_RULE_UNUSABLE', `the set pins rules since disabled or archived: ${unusable.join(', ')}`, {
      rules: unusable,
    });
  }
  const rules = await loadPinnedRules(ctx, view);
  const catalogue = await workspaceCatalogue(ctx);
  let run: RulesetRun;
  try {
    run = await runRuleset(rules, call, {
      catalogue,
      members: await approverMembers(ctx),
      now: ctx.now(),
      timeoutMs: options.timeoutMs ?? RULE_TIMEOUT_MS,
    });
  } catch (err) {
    if (err instanceof RulesetRunError) {
      throw new ApiError('RULESET_RUN_FAILED', `the run failed and nothing was recorded: ${err.message}`, {
        rule: err.rule,
        reason: err.reason,
      });
    }
    throw err;
  }
  await ctx.state.recordRulesetRun(id, view.version_id, run.verdict, ctx.now());
  return { ruleset: id, version_id: view.version_id, ...run };
}
