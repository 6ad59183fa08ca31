// GET /v1/documents: every document with its kind, status, running version and problems.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { DocumentSummary } from './types.ts';

export async function getDocuments(signal?: AbortSignal): Promise<DocumentSummary[]> {
  return bodyOf(await api.GET('/documents', { signal })).documents;
}

export const documentsQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.documents.list(), queryFn: ({ signal }) => getDocuments(signal) });

export function useDocuments() {
  return useQuery(documentsQueryOptions());
}
