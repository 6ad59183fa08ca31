// POST /v1/keys/{id}/revoke: the key is refused (KEY_REVOKED) from its next call on.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { Key } from './types.ts';

export async function revokeKey(id: string): Promise<Key> {
  return bodyOf(await api.POST('/keys/{id}/revoke', { params: { path: { id } } }));
}

export function useRevokeKey(onRevoked: (key: Key) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: revokeKey,
    onSuccess: async (key) => {
      onRevoked(key);
      await client.invalidateQueries({ queryKey: queryKeys.identity.all });
    },
  });
}
