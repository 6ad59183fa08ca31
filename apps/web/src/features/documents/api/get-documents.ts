// GET /v1/documents: every document with its kind, status, running version and problems.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';
import type { DocumentSummary } from './types.ts';

export async function getDocuments(signal?: AbortSignal): Promise<DocumentSummary[]> {
  const body = await apiFetch<{ documents: DocumentSummary[] }>('/v1/documents', { signal });
  return body.documents;
}

export const documentsQueryOptions = () => queryOptions({ queryKey: ['documents', 'list'], queryFn: ({ signal }) => getDocuments(signal) });

export function useDocuments() {
  return useQuery(documentsQueryOptions());
}
