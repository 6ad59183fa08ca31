// GET /v1/members/{id}/public-key: a member's public signing key (SPKI PEM) and its fingerprint.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import type { components } from '../../../lib/api/schema';
import { queryKeys } from '../../../lib/query-keys.ts';

export type MemberPublicKey = components['schemas']['MemberPublicKey'];

export async function getMemberKey(id: string, signal?: AbortSignal): Promise<MemberPublicKey> {
  return bodyOf(await api.GET('/members/{id}/public-key', { params: { path: { id } }, signal }));
}

export const memberKeyQueryOptions = (id: string) =>
  queryOptions({
    queryKey: queryKeys.memberKey(id),
    queryFn: ({ signal }) => getMemberKey(id, signal),
    staleTime: Number.POSITIVE_INFINITY,
  });

/** The key of member `id`; nothing is fetched while `id` is null. */
export function useMemberKey(id: string | null) {
  return useQuery({ ...memberKeyQueryOptions(id ?? ''), enabled: id !== null });
}
