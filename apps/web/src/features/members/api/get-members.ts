// GET /v1/members: the current members and their roles, oldest first.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { Member } from './types.ts';

export async function getMembers(signal?: AbortSignal): Promise<Member[]> {
  return bodyOf(await api.GET('/members', { signal })).members.filter((m) => m.removed_at === null);
}

export const membersQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.identity.members(), queryFn: ({ signal }) => getMembers(signal) });

export function useMembers() {
  return useQuery(membersQueryOptions());
}
