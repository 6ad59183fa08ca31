// GET /v1/documents/{id}/impact-preview?candidate=N[&running=M]: the tools a candidate policy version changes,
// from what decision to what, against the running version (or M), per catalogue (docs/review.md).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { ImpactPreview } from './types.ts';

export async function getImpactPreview(
  id: string,
  candidate: number,
  running: number | null,
  signal?: AbortSignal,
): Promise<ImpactPreview> {
  const query = running === null ? { candidate } : { candidate, running };
  return bodyOf(await api.GET('/documents/{id}/impact-preview', { params: { path: { id }, query }, signal }));
}

export const impactPreviewQueryOptions = (id: string, candidate: number, running: number | null) =>
  queryOptions({
    queryKey: queryKeys.documents.impactPreview(id, candidate, running),
    queryFn: ({ signal }) => getImpactPreview(id, candidate, running, signal),
  });

export function useImpactPreview(id: string, candidate: number, running: number | null = null) {
  return useQuery(impactPreviewQueryOptions(id, candidate, running));
}
