// POST /v1/approvals/{id}/challenge {decision}: the content a member-held key signs for this decision, and
// WebAuthn request options when the member has passkeys (docs/approver-keys.md, "The API").
import { api, bodyOf } from '../../../lib/api/client.ts';
import type { DecisionChallenge } from './types.ts';

export async function requestChallenge(id: string, decision: 'approved' | 'denied'): Promise<DecisionChallenge> {
  return bodyOf(await api.POST('/approvals/{id}/challenge', { params: { path: { id } }, body: { decision } }));
}
