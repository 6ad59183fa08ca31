// GET /v1/rulesets/{id}?version_id=: one set at a version (the active one when none is named), pins resolved.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { Ruleset } from './types.ts';

export async function getRuleset(id: string, versionId: number | null, signal?: AbortSignal): Promise<Ruleset> {
  const query = versionId === null ? {} : { version_id: versionId };
  return bodyOf(await api.GET('/rulesets/{id}', { params: { path: { id }, query }, signal }));
}

export const rulesetQueryOptions = (id: string, versionId: number | null) =>
  queryOptions({
    queryKey: queryKeys.rulesets.detail(id, versionId),
    queryFn: ({ signal }) => getRuleset(id, versionId, signal),
  });

export function useRuleset(id: string, versionId: number | null) {
  // Keeps the last version on screen while the next one loads, so picking a version does not blank the page.
  return useQuery({ ...rulesetQueryOptions(id, versionId), placeholderData: keepPreviousData });
}
