// GET /v1/documents/{id}/history: the stored versions of a policy, oldest first, to pick from.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { PolicyVersion } from './types.ts';

export async function getVersions(id: string, signal?: AbortSignal): Promise<PolicyVersion[]> {
  return bodyOf(await api.GET('/documents/{id}/history', { params: { path: { id } }, signal })).versions;
}

export const versionsQueryOptions = (id: string) =>
  queryOptions({ queryKey: queryKeys.documents.history(id), queryFn: ({ signal }) => getVersions(id, signal) });

export function useVersions(id: string | null) {
  return useQuery({ ...versionsQueryOptions(id ?? ''), enabled: id !== null });
}
