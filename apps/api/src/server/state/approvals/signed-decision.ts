// What deciding an approval request writes, signed with the deciding member's Ed25519 identity (made with the
// member: members/credentials.ts). Signing needs node:crypto, so it is done here, beside the pure model that
// builds the signed content, once for both stores.
import { sign } from 'node:crypto';
import type { MemberRow } from '../members/model.ts';
import { type ApprovalRow, signedContentOf } from './model.ts';

/** The columns a decision sets on its request. */
export interface DecisionWrite {
  status: 'approved' | 'denied';
  decided_by: string;
  decided_at: string;
  reason: string | null;
  signature: string;
  signed_content: string;
}

/**
 * The member's decision of `row` at `now`, with the content they sign and its signature (base64).
 *
 * @example
 * const write = signedDecision(row, member, 'approved', null, new Date());
 */
export function signedDecision(
  row: ApprovalRow,
  member: MemberRow,
  decision: 'approved' | 'denied',
  reason: string | null,
  now: Date,
): DecisionWrite {
  const decidedAt = now.toISOString();
  const content = signedContentOf(row, decision, member.id, decidedAt);
  const signature = sign(null, Buffer.from(content, 'utf8'), member.private_key).toString('base64');
  return { status: decision, decided_by: member.id, decided_at: decidedAt, reason, signature, signed_content: content };
}
