// POST /v1/members/{id}/credentials/{credential}/revoke: a passkey or device key no longer signs decisions;
// a proof made with it is refused (CREDENTIAL_REVOKED).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { Credential } from './types.ts';

export async function revokeCredential({ member, id }: { member: string; id: string }): Promise<Credential> {
  return bodyOf(await api.POST('/members/{id}/credentials/{credential}/revoke', { params: { path: { id: member, credential: id } } }));
}

export function useRevokeCredential(onRevoked: (credential: Credential) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: revokeCredential,
    onSuccess: async (credential) => {
      onRevoked(credential);
      await client.invalidateQueries({ queryKey: queryKeys.identity.all });
    },
  });
}
