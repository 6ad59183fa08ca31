// POST /v1/rulesets/{id}/archive {replaced_by?} and /restore (owner or admin).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { Ruleset } from './types.ts';

export async function archiveRuleset({ id, replacedBy }: { id: string; replacedBy: string | null }): Promise<Ruleset> {
  const body = replacedBy === null ? {} : { replaced_by: replacedBy };
  return bodyOf(await api.POST('/rulesets/{id}/archive', { params: { path: { id } }, body }));
}

export async function restoreRuleset({ id }: { id: string }): Promise<Ruleset> {
  return bodyOf(await api.POST('/rulesets/{id}/restore', { params: { path: { id } } }));
}

export function useArchiveRuleset() {
  const client = useQueryClient();
  return useMutation({ mutationFn: archiveRuleset, onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.rulesets.all }) });
}

export function useRestoreRuleset() {
  const client = useQueryClient();
  return useMutation({ mutationFn: restoreRuleset, onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.rulesets.all }) });
}
