// PATCH /v1/members/{id} {role}: changes a member's role; their keys' grants follow. Refusals (LAST_OWNER,
// OWN_ROLE, OWNER_REQUIRED) come back as the mutation's error for the row to show.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { Member, Role } from './types.ts';

export async function setMemberRole({ id, role }: { id: string; role: Role }): Promise<Member> {
  return bodyOf(await api.PATCH('/members/{id}', { params: { path: { id } }, body: { role } }));
}

export function useSetMemberRole(onChanged: (member: Member) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: setMemberRole,
    onSuccess: async (member) => {
      onChanged(member);
      // A role moves the member's keys' grants, and is recorded: every identity view is read again.
      await client.invalidateQueries({ queryKey: queryKeys.identity.all });
    },
  });
}
