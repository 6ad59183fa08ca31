// GET /v1/documents, narrowed to policies: the documents a simulation can run.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { PolicySummary } from './types.ts';

export async function getDocumentList(signal?: AbortSignal): Promise<PolicySummary[]> {
  return bodyOf(await api.GET('/documents', { signal })).documents;
}

// Same key and data as the documents feature's list, so the cache is shared; the policy filter is a select.
export const policiesQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.documents.list(),
    queryFn: ({ signal }) => getDocumentList(signal),
    select: (documents) => documents.filter((d) => d.kind === 'policy'),
  });

export function usePolicies() {
  return useQuery(policiesQueryOptions());
}
