// GET /v1/documents/{id} and /versions/{base}: their running text and your base, the two texts a merge needs.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export interface MergeSources {
  theirs: { sequence: number; text: string };
  /** null when the edit was a first version (no base): the merge then starts from nothing. */
  base: { sequence: number; text: string } | null;
}

async function versionText(id: string, sequence: number | null, signal?: AbortSignal): Promise<{ sequence: number; text: string }> {
  const body =
    sequence === null
      ? bodyOf(await api.GET('/documents/{id}', { params: { path: { id } }, signal }))
      : bodyOf(await api.GET('/documents/{id}/versions/{sequence}', { params: { path: { id, sequence } }, signal }));
  return { sequence: body.version.sequence, text: body.text };
}

export async function getMergeSources(id: string, base: number | null, signal?: AbortSignal): Promise<MergeSources> {
  const [theirs, based] = await Promise.all([
    versionText(id, null, signal),
    base === null ? Promise.resolve(null) : versionText(id, base, signal),
  ]);
  return { theirs, base: based };
}

export const mergeSourcesQueryOptions = (id: string, base: number | null) =>
  queryOptions({
    queryKey: queryKeys.documents.merge(id, base),
    queryFn: ({ signal }) => getMergeSources(id, base, signal),
    // The running version must be the one the merge is resubmitted on; never refresh it under the person.
    refetchOnWindowFocus: false,
    staleTime: 0,
  });

export function useMergeSources(id: string, base: number | null) {
  return useQuery(mergeSourcesQueryOptions(id, base));
}
