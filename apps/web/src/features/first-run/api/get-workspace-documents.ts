// GET /v1/documents, as the first run reads it: which drafts exist and which run.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { StoredDocument } from '../first-run-steps.ts';

export async function getWorkspaceDocuments(signal?: AbortSignal): Promise<StoredDocument[]> {
  return bodyOf(await api.GET('/documents', { signal })).documents;
}

// Same key and data as the documents page's list, so the cache is shared and an activation refreshes both.
export const workspaceDocumentsQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.documents.list(), queryFn: ({ signal }) => getWorkspaceDocuments(signal) });

export function useWorkspaceDocuments() {
  return useQuery(workspaceDocumentsQueryOptions());
}
