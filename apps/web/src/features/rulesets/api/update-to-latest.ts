// POST /v1/rulesets/{id}/update-to-latest {rule_ids?}: re-pins one or every rule with a newer running
// version and saves the next set version, as a draft (owner, admin or developer).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { Ruleset } from './types.ts';

export interface UpdateToLatestRequest {
  id: string;
  /** The pins to move; every pin with a newer version when left out. */
  ruleIds?: string[];
}

export async function updateToLatest({ id, ruleIds }: UpdateToLatestRequest): Promise<Ruleset> {
  const body = ruleIds === undefined ? {} : { rule_ids: ruleIds };
  return bodyOf(await api.POST('/rulesets/{id}/update-to-latest', { params: { path: { id } }, body }));
}

/** `onSaved` gets the new draft version, so the page can show it. */
export function useUpdateToLatest(onSaved: (draft: Ruleset) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateToLatest,
    onSuccess: async (draft) => {
      onSaved(draft);
      // The set's history gained a version too.
      await Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.rulesets.all }),
        client.invalidateQueries({ queryKey: queryKeys.documents.all }),
      ]);
    },
  });
}
