// POST /v1/approvals/{id}/approve|deny {reason?}: a signed decision; every approvals query is refreshed after.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch, segment } from '../../../lib/api-client.ts';
import type { Approval } from './types.ts';

export interface Decision {
  id: string;
  verb: 'approve' | 'deny';
  reason: string;
}

export function decideApproval({ id, verb, reason }: Decision): Promise<Approval> {
  const body = reason.trim() === '' ? {} : { reason: reason.trim() };
  return apiFetch<Approval>(`/v1/approvals/${segment(id)}/${verb}`, { method: 'POST', body });
}

export function useDecideApproval(onDecided: (approval: Approval) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: decideApproval,
    onSuccess: async (approval) => {
      onDecided(approval);
      await client.invalidateQueries({ queryKey: ['approvals'] });
    },
  });
}
