// POST /v1/rulesets/{id}/update-to-latest {rule_ids?}: re-pins one or every rule with a newer running
// version and saves the next set version, as a draft (owner, admin or developer).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { requestRuleset, rulesetPath } from './request-ruleset.ts';
import type { Ruleset } from './types.ts';

export interface UpdateToLatestRequest {
  id: string;
  /** The pins to move; every pin with a newer version when left out. */
  ruleIds?: string[];
}

export function updateToLatest({ id, ruleIds }: UpdateToLatestRequest): Promise<Ruleset> {
  return requestRuleset<Ruleset>(rulesetPath(id, '/update-to-latest'), {
    method: 'POST',
    body: ruleIds === undefined ? {} : { rule_ids: ruleIds },
  });
}

/** `onSaved` gets the new draft version, so the page can show it. */
export function useUpdateToLatest(onSaved: (draft: Ruleset) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateToLatest,
    onSuccess: async (draft) => {
      onSaved(draft);
      // The set's history gained a version too.
      await Promise.all([client.invalidateQueries({ queryKey: ['rulesets'] }), client.invalidateQueries({ queryKey: ['documents'] })]);
    },
  });
}
