// GET /v1/documents/{id}: the running version of one document, with its text.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { DocumentText } from './types.ts';

export async function getDocument(id: string, signal?: AbortSignal): Promise<DocumentText> {
  return bodyOf(await api.GET('/documents/{id}', { params: { path: { id } }, signal }));
}

export const documentQueryOptions = (id: string) =>
  queryOptions({ queryKey: queryKeys.documents.detail(id), queryFn: ({ signal }) => getDocument(id, signal) });

export function useDocument(id: string) {
  return useQuery(documentQueryOptions(id));
}
