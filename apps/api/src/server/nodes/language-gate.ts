// The language gate (docs/deploy.md, "The language gate"): a policy of
// language revision 2 or 3 runs only once every live node decides it. Each write that would make such a
// version run (activate, revert, a rule set's version or status that makes its pinned policies run) asks here
// first, and is refused with nothing changed while a live node decides less.

import type { PolicyRevision } from '@tollgate/engine';
import type { DocumentStore } from '@tollgate/store';
import { ApiError } from '../errors.ts';
import { laggingNodesOf, type StateStore } from '../state/state-store.ts';
import { laggingSentence, nodesJson, textRevision } from './lagging.ts';

/** What the gate asks of the workspace: its state and its store (an AppContext is one). */
interface Folder {
  state: StateStore;
  store: Pick<DocumentStore, 'getVersion'>;
}

/** A rule-set version as far as the gate reads it: the policy versions it makes run (a RulesetVersionView is one). */
interface SetVersion {
  id: string;
  version_id: number;
  pins: readonly { kind: string; rule_id: string; used_version: number | null }[];
}

/**
 * Refuses (409 GATEWAYS_NOT_UPGRADED, naming the nodes) making a revision-`revision` document run while any
 * live node decides less.
 *
 * @example
 * await assertNodesDecide(ctx.state, 2, 'version 4 of policies/refunds.policy.json')
 */
export async function assertNodesDecide(state: StateStore, revision: PolicyRevision, what: string): Promise<void> {
  const lagging = await laggingNodesOf(state, revision);
  if (lagging.length === 0) return;
  throw new ApiError(
    'GATEWAYS_NOT_UPGRADED',
    `${what} is policy language revision ${revision} and cannot run yet: ${laggingSentence(lagging, revision)}. Nothing was changed; try again once they are upgraded`,
    { revision, gateways: nodesJson(lagging) },
  );
}

/** Refuses making a policy version run while a live node cannot decide it. */
export async function assertPolicyRuns(ctx: Folder, id: string, sequence: number, text: string): Promise<void> {
  await assertNodesDecide(ctx.state, textRevision(text), `version ${sequence} of ${id}`);
}

/** Refuses making a rule-set version run while a live node cannot decide one of the policies it pins. */
export async function assertRulesetRuns(ctx: Folder, view: SetVersion): Promise<void> {
  let revision: PolicyRevision = 1;
  const above: string[] = [];
  for (const pin of view.pins) {
    if (pin.kind !== 'policy' || pin.used_version === null) continue;
    const stored = await ctx.store.getVersion(pin.rule_id, pin.used_version).catch(() => undefined);
    const r = stored ? textRevision(stored.text) : 1;
    if (r > 1) above.push(`${pin.rule_id} version ${pin.used_version}`);
    if (r > revision) revision = r;
  }
  if (revision === 1) return;
  await assertNodesDecide(ctx.state, revision, `version ${view.version_id} of ${view.id} (it pins ${above.join(', ')})`);
}
