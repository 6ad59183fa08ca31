// GET /v1/documents/{id}/diff?from=A&to=B: a unified diff of two versions and what the second widens over the first.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { DocumentDiff } from './types.ts';

export async function getDiff(id: string, from: number, to: number, signal?: AbortSignal): Promise<DocumentDiff> {
  return bodyOf(await api.GET('/documents/{id}/diff', { params: { path: { id }, query: { from, to } }, signal }));
}

export const diffQueryOptions = (id: string, from: number, to: number) =>
  queryOptions({ queryKey: queryKeys.documents.diff(id, from, to), queryFn: ({ signal }) => getDiff(id, from, to, signal) });

export function useDiff(id: string, from: number, to: number) {
  return useQuery(diffQueryOptions(id, from, to));
}
