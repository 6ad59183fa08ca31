// GET /v1/documents/{id}: the running version the editor opens, with its text.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { RunningText } from './types.ts';

export async function getRunningDocument(id: string, signal?: AbortSignal): Promise<RunningText> {
  return bodyOf(await api.GET('/documents/{id}', { params: { path: { id } }, signal }));
}

export const runningDocumentQueryOptions = (id: string) =>
  queryOptions({
    queryKey: queryKeys.documents.detail(id),
    queryFn: ({ signal }) => getRunningDocument(id, signal),
    // The editor holds its own text; a refetch in the background must not look like a new base.
    refetchOnWindowFocus: false,
  });

export function useRunningDocument(id: string) {
  return useQuery(runningDocumentQueryOptions(id));
}
