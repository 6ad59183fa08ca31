// GET /v1/documents/{id}: the running version the editor opens, with its text.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch, segment } from '../../../lib/api-client.ts';
import type { EditorVersion } from './types.ts';

export interface RunningText {
  id: string;
  kind: string | null;
  version: EditorVersion;
  text: string;
}

export function getRunningDocument(id: string, signal?: AbortSignal): Promise<RunningText> {
  return apiFetch<RunningText>(`/v1/documents/${segment(id)}`, { signal });
}

export const runningDocumentQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['documents', 'detail', id],
    queryFn: ({ signal }) => getRunningDocument(id, signal),
    // The editor holds its own text; a refetch in the background must not look like a new base.
    refetchOnWindowFocus: false,
  });

export function useRunningDocument(id: string) {
  return useQuery(runningDocumentQueryOptions(id));
}
