// POST /v1/keys/{id}/rotate {overlap_seconds}: a new key for the same holder, the old one working for the
// overlap. Like a new key, the secret goes to `onSecret` only and never into the mutation's state.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { type RevealedKey, withoutSecret } from '../key-forms.ts';
import type { Key } from './types.ts';

export async function rotateKey(id: string, overlapSeconds: number, onSecret: (revealed: RevealedKey) => void): Promise<Key> {
  const made = bodyOf(await api.POST('/keys/{id}/rotate', { params: { path: { id } }, body: { overlap_seconds: overlapSeconds } }));
  const { previous, ...rest } = made;
  const { key, info } = withoutSecret(rest);
  onSecret({ secret: key, info });
  return previous;
}

export function useRotateKey(onSecret: (revealed: RevealedKey) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, overlapSeconds }: { id: string; overlapSeconds: number }) => rotateKey(id, overlapSeconds, onSecret),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.identity.all }),
  });
}
