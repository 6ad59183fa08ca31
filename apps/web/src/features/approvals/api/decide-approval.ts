// Approve or deny: POST /v1/approvals/{id}/challenge first; when the member has passkeys, one of them signs the
// content and POST /v1/approvals/{id}/approve|deny carries the proof; otherwise the API signs with the member's
// custodial key (docs/approver-keys.md). Every approvals query is refreshed after.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { passkeyProof } from './passkey-proof.ts';
import { requestChallenge } from './request-challenge.ts';
import type { Approval } from './types.ts';

export interface Decision {
  id: string;
  verb: 'approve' | 'deny';
  reason: string;
}

export async function decideApproval({ id, verb, reason }: Decision): Promise<Approval> {
  const challenge = await requestChallenge(id, verb === 'approve' ? 'approved' : 'denied');
  const said = reason.trim() === '' ? {} : { reason: reason.trim() };
  const body = challenge.passkey === null ? said : { ...said, ...(await passkeyProof({ ...challenge, passkey: challenge.passkey })) };
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
