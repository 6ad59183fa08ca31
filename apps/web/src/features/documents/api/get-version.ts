// GET /v1/documents/{id}/versions/{sequence}: one stored version, with its text.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { DocumentText } from './types.ts';

export async function getVersion(id: string, sequence: number, signal?: AbortSignal): Promise<DocumentText> {
  return bodyOf(await api.GET('/documents/{id}/versions/{sequence}', { params: { path: { id, sequence } }, signal }));
}

// A stored version's text never changes, so it stays fresh for good.
export const versionQueryOptions = (id: string, sequence: number) =>
  queryOptions({
    queryKey: queryKeys.documents.version(id, sequence),
    queryFn: ({ signal }) => getVersion(id, sequence, signal),
    staleTime: Number.POSITIVE_INFINITY,
  });

export function useVersion(id: string, sequence: number) {
  return useQuery(versionQueryOptions(id, sequence));
}
