// GET /v1/identity/changes: the record of member and key changes, newest first, a page at a time by cursor.
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

const PAGE = 50;

export async function getIdentityChanges(cursor: string | null, signal?: AbortSignal) {
  const query = cursor === null ? { limit: PAGE } : { limit: PAGE, cursor };
  return bodyOf(await api.GET('/identity/changes', { params: { query }, signal }));
}

export const identityChangesQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: queryKeys.identity.changes(),
    queryFn: ({ pageParam, signal }) => getIdentityChanges(pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => (last.has_more ? (last.next_cursor ?? null) : null),
  });

/** The record; nothing is asked while `enabled` is false (it is for owners and admins). */
export function useIdentityChanges(enabled: boolean) {
  return useInfiniteQuery({ ...identityChangesQueryOptions(), enabled });
}
