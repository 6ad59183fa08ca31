// GET /v1/documents/{id}: the running version of one document, with its text.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch, segment } from '../../../lib/api-client.ts';
import type { DocumentVersion } from './types.ts';

export interface RunningDocument {
  id: string;
  kind: string | null;
  version: DocumentVersion;
  text: string;
}

export function getDocument(id: string, signal?: AbortSignal): Promise<RunningDocument> {
  return apiFetch<RunningDocument>(`/v1/documents/${segment(id)}`, { signal });
}

export const documentQueryOptions = (id: string) =>
  queryOptions({ queryKey: ['documents', 'detail', id], queryFn: ({ signal }) => getDocument(id, signal) });

export function useDocument(id: string) {
  return useQuery(documentQueryOptions(id));
}
