// Whether an approved request's signatures hold before its call runs (docs/approver-keys.md): with the approver's
// custodial public key, or the credential of theirs its proof names, by the same check `tollgate audit verify` makes
// (record/approval-signatures.ts); a request that needs a quorum, each of its N approvals, by N distinct members. With
// approvals_require_member_keys, only a member-held key's proof counts.
import type { AppContext } from '../context.ts';
import { approvalProblem, memberKeysOf, proofOfBody, type SignerLine } from '../record/approval-signatures.ts';
import { approvalDecidedBody, approvalVotedBody } from '../record/entries.ts';
import type { ApprovalRow } from '../state/approvals/model.ts';
import { memberKeysRequired } from './member-keys-setting.ts';

type Body = ReturnType<typeof approvalDecidedBody>;

export async function approvalSigned(ctx: AppContext, row: ApprovalRow): Promise<boolean> {
  if (row.decided_by === null) return false;
  const required = await memberKeysRequired(ctx);
  if (row.quorum <= 1) return signed(ctx, approvalDecidedBody(row), required);
  const approving = (await ctx.state.listVotes(row.id)).filter((v) => v.decision === 'approved');
  const members = new Set(approving.map((v) => v.member_id));
  if (members.size < row.quorum) return false;
  for (const vote of approving) if (!(await signed(ctx, approvalVotedBody(row, vote), required))) return false;
  return true;
}

/** Whether one signed decision (a request's, or a vote's) holds with the key it names. */
async function signed(ctx: AppContext, body: Body, memberKeysOnly: boolean): Promise<boolean> {
  const proof = proofOfBody(body);
  if (proof === 'unreadable' || typeof body.decided_by !== 'string') return false;
  if (proof === undefined && memberKeysOnly) return false;
  const lines: SignerLine[] = [];
  if (proof === undefined) {
    const member = await ctx.state.findMember(body.decided_by);
    if (member?.id === body.decided_by) lines.push({ member: member.id, public_key: member.public_key });
  } else {
    const credential = await ctx.state.identity.findCredential(proof.credential_id);
    if (credential) {
      const { member_id: member, public_key, id, kind, rp_id } = credential;
      lines.push({ member, public_key, credential: id, kind, rp_id });
    }
  }
  return approvalProblem(body, memberKeysOf(lines)) === undefined;
}
