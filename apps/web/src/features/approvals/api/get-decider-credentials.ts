// GET /v1/members/{id}/credentials: the decider's signing credentials, to find the one a proof names. Read again
// for each receipt, as a passkey may have been enrolled since the list was last read.
import { api, bodyOf } from '../../../lib/api/client.ts';
import type { ProofKey } from './verify-member-proof.ts';

/** The public half of credential `credential` of member `member`, or undefined when the member has no such one. */
export async function getDeciderCredential(member: string, credential: string, signal?: AbortSignal): Promise<ProofKey | undefined> {
  const { credentials } = bodyOf(await api.GET('/members/{id}/credentials', { params: { path: { id: member } }, signal }));
  return credentials.find((c) => c.id === credential);
}
