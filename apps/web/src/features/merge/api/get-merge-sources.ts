// GET /v1/documents/{id} and /versions/{base}: their running text and your base, the two texts a merge needs.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch, segment } from '../../../lib/api-client.ts';

export interface MergeSources {
  theirs: { sequence: number; text: string };
  /** null when the edit was a first version (no base): the merge then starts from nothing. */
  base: { sequence: number; text: string } | null;
}

interface VersionText {
  version: { sequence: number };
  text: string;
}

export async function getMergeSources(id: string, base: number | null, signal?: AbortSignal): Promise<MergeSources> {
  const path = `/v1/documents/${segment(id)}`;
  const [running, based] = await Promise.all([
    apiFetch<VersionText>(path, { signal }),
    base === null ? Promise.resolve(null) : apiFetch<VersionText>(`${path}/versions/${base}`, { signal }),
  ]);
  return {
    theirs: { sequence: running.version.sequence, text: running.text },
    base: based === null ? null : { sequence: based.version.sequence, text: based.text },
  };
}

export const mergeSourcesQueryOptions = (id: string, base: number | null) =>
  queryOptions({
    queryKey: ['documents', 'merge', id, base],
    queryFn: ({ signal }) => getMergeSources(id, base, signal),
    // The running version must be the one the merge is resubmitted on; never refresh it under the person.
    refetchOnWindowFocus: false,
    staleTime: 0,
  });

export function useMergeSources(id: string, base: number | null) {
  return useQuery(mergeSourcesQueryOptions(id, base));
}
