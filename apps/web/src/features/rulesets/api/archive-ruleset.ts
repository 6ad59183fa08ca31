// POST /v1/rulesets/{id}/archive {replaced_by?} and /restore (owner or admin).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { requestRuleset, rulesetPath } from './request-ruleset.ts';
import type { Ruleset } from './types.ts';

export function archiveRuleset({ id, replacedBy }: { id: string; replacedBy: string | null }): Promise<Ruleset> {
  return requestRuleset<Ruleset>(rulesetPath(id, '/archive'), {
    method: 'POST',
    body: replacedBy === null ? {} : { replaced_by: replacedBy },
  });
}

export function restoreRuleset({ id }: { id: string }): Promise<Ruleset> {
  return requestRuleset<Ruleset>(rulesetPath(id, '/restore'), { method: 'POST', body: {} });
}

export function useArchiveRuleset() {
  const client = useQueryClient();
  return useMutation({ mutationFn: archiveRuleset, onSuccess: () => client.invalidateQueries({ queryKey: ['rulesets'] }) });
}

export function useRestoreRuleset() {
  const client = useQueryClient();
  return useMutation({ mutationFn: restoreRuleset, onSuccess: () => client.invalidateQueries({ queryKey: ['rulesets'] }) });
}
