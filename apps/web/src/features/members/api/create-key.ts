// POST /v1/keys: makes a key for a member or an agent. The answer carries the key itself, shown once: it goes to
// `onSecret` and is taken out of what the mutation keeps, so no cache ever holds it (docs/console.md).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { NewKeyBody } from '../key-forms.ts';
import { type RevealedKey, withoutSecret } from '../key-forms.ts';
import type { Key } from './types.ts';

export async function createKey(body: NewKeyBody, onSecret: (revealed: RevealedKey) => void): Promise<Key> {
  const made = bodyOf(await api.POST('/keys', { body }));
  const { key, info } = withoutSecret(made);
  onSecret({ secret: key, info });
  return info;
}

export function useCreateKey(onSecret: (revealed: RevealedKey) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: NewKeyBody) => createKey(body, onSecret),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.identity.all }),
  });
}
