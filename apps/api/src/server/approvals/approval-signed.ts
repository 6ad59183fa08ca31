// Whether an approved request's signature holds before its call runs (docs/approver-keys.md): with the approver's
// custodial public key, or the credential of theirs its proof names, by the same check `tollgate audit verify` makes
// (record/approval-signatures.ts); with approvals_require_member_keys, only a member-held key's proof counts.
import type { AppContext } from '../context.ts';
import { approvalProblem, memberKeysOf, proofOfBody, type SignerLine } from '../record/approval-signatures.ts';
import { approvalDecidedBody } from '../record/entries.ts';
import type { ApprovalRow } from '../state/approvals/model.ts';
import { memberKeysRequired } from './member-keys-setting.ts';

export async function approvalSigned(ctx: AppContext, row: ApprovalRow): Promise<boolean> {
  if (row.decided_by === null) return false;
  const body = approvalDecidedBody(row);
  const proof = proofOfBody(body);
  if (proof === 'unreadable') return false;
  if (proof === undefined && (await memberKeysRequired(ctx))) return false;
  const lines: SignerLine[] = [];
  if (proof === undefined) {
    const member = await ctx.state.findMember(row.decided_by);
    if (member?.id === row.decided_by) lines.push({ member: member.id, public_key: member.public_key });
  } else {
    const credential = await ctx.state.identity.findCredential(proof.credential_id);
    if (credential) {
      const { member_id: member, public_key, id, kind, rp_id } = credential;
      lines.push({ member, public_key, credential: id, kind, rp_id });
    }
  }
  return approvalProblem(body, memberKeysOf(lines)) === undefined;
}
