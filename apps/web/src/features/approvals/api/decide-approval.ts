// POST /v1/approvals/{id}/approve|deny {reason?}: a signed decision; every approvals query is refreshed after.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { Approval } from './types.ts';

export interface Decision {
  id: string;
  verb: 'approve' | 'deny';
  reason: string;
}

export async function decideApproval({ id, verb, reason }: Decision): Promise<Approval> {
  const body = reason.trim() === '' ? {} : { reason: reason.trim() };
  const init = { params: { path: { id } }, body };
  return bodyOf(verb === 'approve' ? await api.POST('/approvals/{id}/approve', init) : await api.POST('/approvals/{id}/deny', init));
}

export function useDecideApproval(onDecided: (approval: Approval) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: decideApproval,
    onSuccess: async (approval) => {
      onDecided(approval);
      await client.invalidateQueries({ queryKey: queryKeys.approvals.all });
    },
  });
}
