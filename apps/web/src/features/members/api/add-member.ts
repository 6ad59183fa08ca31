// POST /v1/members {name, role}: adds a member (owners and admins; an admin cannot make an owner).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { Member, Role } from './types.ts';

export async function addMember(body: { name: string; role: Role }): Promise<Member> {
  return bodyOf(await api.POST('/members', { body }));
}

export function useAddMember(onAdded: (member: Member) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: addMember,
    onSuccess: async (member) => {
      onAdded(member);
      await client.invalidateQueries({ queryKey: queryKeys.identity.all });
    },
  });
}
