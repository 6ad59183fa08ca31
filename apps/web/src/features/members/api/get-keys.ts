// GET /v1/keys: every key for owners and admins, one's own for anyone else (never the keys themselves).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { Key } from './types.ts';

export async function getKeys(signal?: AbortSignal): Promise<Key[]> {
  return bodyOf(await api.GET('/keys', { signal })).keys;
}

export const keysQueryOptions = () => queryOptions({ queryKey: queryKeys.identity.keys(), queryFn: ({ signal }) => getKeys(signal) });

export function useKeys() {
  return useQuery(keysQueryOptions());
}
