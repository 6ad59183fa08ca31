// GET /v1/members/{id}/credentials: a member's signing credentials, custodial first (docs/approver-keys.md).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { Credential } from './types.ts';

export async function getCredentials(member: string, signal?: AbortSignal): Promise<Credential[]> {
  return bodyOf(await api.GET('/members/{id}/credentials', { params: { path: { id: member } }, signal })).credentials;
}

export const credentialsQueryOptions = (member: string) =>
  queryOptions({ queryKey: queryKeys.identity.credentials(member), queryFn: ({ signal }) => getCredentials(member, signal) });

/** Member `member`'s credentials; nothing is asked while `member` is null (GET /v1/me has not answered). */
export function useCredentials(member: string | null) {
  return useQuery({ ...credentialsQueryOptions(member ?? ''), enabled: member !== null });
}
