// GET /v1/documents/{id}/history: the stored versions of a policy, oldest first, to pick from.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch, segment } from '../../../lib/api-client.ts';
import type { PolicyVersion } from './types.ts';

export async function getVersions(id: string, signal?: AbortSignal): Promise<PolicyVersion[]> {
  const body = await apiFetch<{ versions: PolicyVersion[] }>(`/v1/documents/${segment(id)}/history`, { signal });
  return body.versions;
}

export const versionsQueryOptions = (id: string) =>
  queryOptions({ queryKey: ['documents', 'history', id], queryFn: ({ signal }) => getVersions(id, signal) });

export function useVersions(id: string | null) {
  return useQuery({ ...versionsQueryOptions(id ?? ''), enabled: id !== null });
}
