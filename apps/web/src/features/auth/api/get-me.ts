// GET /v1/me: who the signed-in key belongs to (name, role, id), for the header and for what is offered.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api/api-error.ts';
import { api, bearer, bodyOf } from '../../../lib/api/client.ts';
import type { Role } from '../../../lib/capabilities.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export type { Role } from '../../../lib/capabilities.ts';

/** The signed-in member; fields are null when the API cannot say (a server without GET /v1/me). */
export interface Me {
  id: string | null;
  name: string | null;
  role: Role | null;
}

const UNKNOWN: Me = { id: null, name: null, role: null };

/** Fetches the member behind `key`; a server without the route answers an unknown member rather than failing. */
export async function getMe(key: string): Promise<Me> {
  try {
    const me = bodyOf(await api.GET('/me', { headers: bearer(key) }));
    return { id: me.id, name: me.name, role: me.role };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return UNKNOWN;
    // A server without the route may answer the console's HTML instead, which does not parse.
    if (error instanceof SyntaxError) return UNKNOWN;
    throw error;
  }
}

export const meQueryOptions = (key: string) =>
  queryOptions({ queryKey: queryKeys.me(key), queryFn: () => getMe(key), staleTime: Number.POSITIVE_INFINITY });

export function useMe(key: string) {
  return useQuery(meQueryOptions(key));
}
