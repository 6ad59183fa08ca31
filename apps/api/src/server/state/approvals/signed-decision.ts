// What deciding an approval request writes when the server signs for the member, with their custodial Ed25519
// identity (members/custodial-keys.ts opens it). A decision a member signed themself is checked instead
// (server/approvals/verify-proof.ts). node:crypto, so beside the pure model that builds the signed content.
import { type KeyObject, sign } from 'node:crypto';
import { type ApprovalRow, type DecisionWrite, signedContentOf } from './model.ts';

/**
 * The member's decision of `row` at `now`, signed with their custodial key, with the content they sign.
 *
 * @example
 * const write = custodialDecision(row, member.id, privateKey, 'approved', null, new Date(), 'sha256:…');
 */
export function custodialDecision(
  row: ApprovalRow,
  memberId: string,
  privateKey: KeyObject,
  decision: 'approved' | 'denied',
  reason: string | null,
  now: Date,
  policyDigest?: string,
): DecisionWrite {
  const decidedAt = now.toISOString();
  const content = signedContentOf(row, decision, memberId, decidedAt, policyDigest);
  const signature = sign(null, Buffer.from(content, 'utf8'), privateKey).toString('base64');
  return { status: decision, decided_by: memberId, decided_at: decidedAt, reason, signature, signed_content: content, proof: null };
}
