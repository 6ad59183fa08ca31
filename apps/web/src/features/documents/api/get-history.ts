// GET /v1/documents/{id}/history: every stored version, oldest first, rejected ones included.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { DocumentVersion } from './types.ts';

export async function getHistory(id: string, signal?: AbortSignal): Promise<DocumentVersion[]> {
  return bodyOf(await api.GET('/documents/{id}/history', { params: { path: { id } }, signal })).versions;
}

export const historyQueryOptions = (id: string) =>
  queryOptions({ queryKey: queryKeys.documents.history(id), queryFn: ({ signal }) => getHistory(id, signal) });

export function useHistory(id: string) {
  return useQuery(historyQueryOptions(id));
}
