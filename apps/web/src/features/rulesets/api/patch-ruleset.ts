// PATCH /v1/rulesets/{id} without pins: a status change or the active version, no new version (owner or admin).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { requestRuleset, rulesetPath } from './request-ruleset.ts';
import type { RuleStatus, Ruleset } from './types.ts';

export type LifecycleChange = { status: Exclude<RuleStatus, 'archived'> } | { active_version: number };

export function patchRuleset({ id, change }: { id: string; change: LifecycleChange }): Promise<Ruleset> {
  return requestRuleset<Ruleset>(rulesetPath(id), { method: 'PATCH', body: change });
}

export function usePatchRuleset() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: patchRuleset,
    // Activating a version moves the stored running version as well as the set.
    onSuccess: () =>
      Promise.all([client.invalidateQueries({ queryKey: ['rulesets'] }), client.invalidateQueries({ queryKey: ['documents'] })]),
  });
}
