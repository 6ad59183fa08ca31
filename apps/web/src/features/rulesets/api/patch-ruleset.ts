// PATCH /v1/rulesets/{id} without pins: a status change or the active version, no new version (owner or admin).
// If-Match names the set's newest version as read, so a change over someone else's newer one is refused (412).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, bodyOf, ifMatch } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { RuleStatus, Ruleset } from './types.ts';

export type LifecycleChange = { status: Exclude<RuleStatus, 'archived'> } | { active_version: number };

export interface PatchRequest {
  id: string;
  change: LifecycleChange;
  /** The set's entity tag as read: its newest version (newestVersion in ./types.ts). */
  newest: number;
}

export async function patchRuleset({ id, change, newest }: PatchRequest): Promise<Ruleset> {
  return bodyOf(await api.PATCH('/rulesets/{id}', { params: { path: { id } }, body: change, headers: ifMatch(newest) }));
}

export function usePatchRuleset() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: patchRuleset,
    // Activating a version moves the stored running version as well as the set; a refusal means the page was stale.
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.rulesets.all }),
        client.invalidateQueries({ queryKey: queryKeys.documents.all }),
      ]),
  });
}
