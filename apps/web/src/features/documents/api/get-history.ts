// GET /v1/documents/{id}/history: every stored version, oldest first, rejected ones included, and the version
// a revert would run.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { DocumentHistory } from './types.ts';

export async function getHistory(id: string, signal?: AbortSignal): Promise<DocumentHistory> {
  return bodyOf(await api.GET('/documents/{id}/history', { params: { path: { id } }, signal }));
}

export const historyQueryOptions = (id: string) =>
  queryOptions({ queryKey: queryKeys.documents.history(id), queryFn: ({ signal }) => getHistory(id, signal) });

/** The versions, oldest first. */
export function useHistory(id: string) {
  return useQuery({ ...historyQueryOptions(id), select: (history) => history.versions });
}

/** The version a revert would run now (null: nothing to revert to), from the same answer. */
export function useRevertTarget(id: string) {
  return useQuery({ ...historyQueryOptions(id), select: (history) => history.revert_target });
}
