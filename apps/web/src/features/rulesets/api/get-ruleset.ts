// GET /v1/rulesets/{id}?version_id=: one set at a version (the active one when none is named), pins resolved.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { requestRuleset, rulesetPath } from './request-ruleset.ts';
import type { Ruleset } from './types.ts';

export function getRuleset(id: string, versionId: number | null, signal?: AbortSignal): Promise<Ruleset> {
  const query = versionId === null ? '' : `?version_id=${versionId}`;
  return requestRuleset<Ruleset>(rulesetPath(id, query), { signal });
}

export const rulesetQueryOptions = (id: string, versionId: number | null) =>
  queryOptions({
    queryKey: ['rulesets', 'detail', id, versionId ?? 'active'],
    queryFn: ({ signal }) => getRuleset(id, versionId, signal),
  });

export function useRuleset(id: string, versionId: number | null) {
  // Keeps the last version on screen while the next one loads, so picking a version does not blank the page.
  return useQuery({ ...rulesetQueryOptions(id, versionId), placeholderData: keepPreviousData });
}
