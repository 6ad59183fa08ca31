// POST /v1/rulesets/{id}/validate {call, version_id?}: runs a set against one call; each rule's own result.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { requestRuleset, rulesetPath } from './request-ruleset.ts';
import type { RulesetCall, RulesetRun } from './types.ts';

export interface ValidateRequest {
  id: string;
  versionId: number;
  call: RulesetCall;
}

export function validateRuleset({ id, versionId, call }: ValidateRequest): Promise<RulesetRun> {
  return requestRuleset<RulesetRun>(rulesetPath(id, '/validate'), { method: 'POST', body: { call, version_id: versionId } });
}

export function useValidateRuleset() {
  const client = useQueryClient();
  // A run is counted in the set's runs of the last 30 days.
  return useMutation({ mutationFn: validateRuleset, onSuccess: () => client.invalidateQueries({ queryKey: ['rulesets'] }) });
}
