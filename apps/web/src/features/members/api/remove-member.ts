// DELETE /v1/members/{id}: removes a member and revokes their keys at once.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { Member } from './types.ts';

export async function removeMember(id: string): Promise<Member> {
  return bodyOf(await api.DELETE('/members/{id}', { params: { path: { id } } }));
}

export function useRemoveMember(onRemoved: (member: Member) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: removeMember,
    onSuccess: async (member) => {
      onRemoved(member);
      await client.invalidateQueries({ queryKey: queryKeys.identity.all });
    },
  });
}
