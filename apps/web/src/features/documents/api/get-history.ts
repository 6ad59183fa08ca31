// GET /v1/documents/{id}/history: every stored version, oldest first, rejected ones included; and, read
// separately, the version a revert would run. The versions are cached as a list under the history key,
// which the simulation's version picker shares.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { DocumentVersion } from './types.ts';

async function readHistory(id: string, signal?: AbortSignal) {
  return bodyOf(await api.GET('/documents/{id}/history', { params: { path: { id } }, signal }));
}

export async function getHistory(id: string, signal?: AbortSignal): Promise<DocumentVersion[]> {
  return (await readHistory(id, signal)).versions;
}

/** The version a revert would run now; null when there is nothing to revert to. */
export async function getRevertTarget(id: string, signal?: AbortSignal): Promise<number | null> {
  return (await readHistory(id, signal)).revert_target;
}

export const historyQueryOptions = (id: string) =>
  queryOptions({ queryKey: queryKeys.documents.history(id), queryFn: ({ signal }) => getHistory(id, signal) });

export function useHistory(id: string) {
  return useQuery(historyQueryOptions(id));
}

export function useRevertTarget(id: string) {
  return useQuery({ queryKey: queryKeys.documents.revertTarget(id), queryFn: ({ signal }) => getRevertTarget(id, signal) });
}
