// GET /v1/documents/{id}/history: every stored version, oldest first, rejected ones included.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch, segment } from '../../../lib/api-client.ts';
import type { DocumentVersion } from './types.ts';

export async function getHistory(id: string, signal?: AbortSignal): Promise<DocumentVersion[]> {
  const body = await apiFetch<{ versions: DocumentVersion[] }>(`/v1/documents/${segment(id)}/history`, { signal });
  return body.versions;
}

export const historyQueryOptions = (id: string) =>
  queryOptions({ queryKey: ['documents', 'history', id], queryFn: ({ signal }) => getHistory(id, signal) });

export function useHistory(id: string) {
  return useQuery(historyQueryOptions(id));
}
