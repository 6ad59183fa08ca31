// POST /v1/rulesets/{id}/validate {call, version_id?}: runs a set against one call; each rule's own result.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { RulesetCall, RulesetRun } from './types.ts';

export interface ValidateRequest {
  id: string;
  versionId: number;
  call: RulesetCall;
}

export async function validateRuleset({ id, versionId, call }: ValidateRequest): Promise<RulesetRun> {
  return bodyOf(await api.POST('/rulesets/{id}/validate', { params: { path: { id } }, body: { call, version_id: versionId } }));
}

export function useValidateRuleset() {
  const client = useQueryClient();
  // A run is counted in the set's runs of the last 30 days.
  return useMutation({ mutationFn: validateRuleset, onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.rulesets.all }) });
}
