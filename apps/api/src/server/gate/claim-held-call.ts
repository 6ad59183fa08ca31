// Claiming a held call once it is approved: the one step both paths take, the claim route (routes/approvals.ts)
// and the MCP gateway's held call (mcp/call-tool.ts), so a refusal is named alike on both and the `claimed` event
// is published once, by the claim that won (docs/api.md, "Approvals"). The approval's signature is checked first
// (approvals/approval-signed.ts): a yes written into the database by hand never runs a call.
import type { ApiCode } from '@tollgate/engine';
import { approvalSigned } from '../approvals/approval-signed.ts';
import type { AppContext } from '../context.ts';
import type { ApprovalRow, ClaimRefusal } from '../state/approvals/model.ts';
import { argumentsDigest } from '../state/decisions/arguments-digest.ts';

/** Each refusal's code and words, for the claim route's error and the gateway's error result alike. */
export const CLAIM_REFUSALS: Readonly<Record<ClaimRefusal, { code: ApiCode; message: string }>> = {
  not_found: { code: 'NOT_FOUND', message: 'there is no such approval request' },
  not_approved: { code: 'NOT_APPROVED', message: 'the request is not approved' },
  already_claimed: { code: 'ALREADY_CLAIMED', message: 'the request has been claimed already' },
  arguments_mismatch: { code: 'ARGUMENTS_MISMATCH', message: 'the arguments are not the ones approved' },
  expired: { code: 'APPROVAL_EXPIRED', message: 'the request has expired' },
  unsigned: {
    code: 'APPROVAL_UNSIGNED',
    message: "the approval's signature does not hold with its approver's key (or the settings require a key the approver holds)",
  },
};

/**
 * Claims approval `id` for a call with `args`, exactly once and bound to the arguments' digest; the winner
 * publishes the `claimed` event.
 *
 * @example
 * const claim = await claimHeldCall(ctx, approvalId, { amount: '500' });
 * if (!claim.ok) refuse(claim.code, claim.message);
 */
export async function claimHeldCall(
  ctx: AppContext,
  id: string,
  args: unknown,
): Promise<{ ok: true; row: ApprovalRow } | { ok: false; reason: ClaimRefusal; code: ApiCode; message: string }> {
  // An approval written around the deciding path (a database write) is not run: its signature must hold.
  const found = await ctx.state.findApproval(id);
  if (found?.status === 'approved' && !(await approvalSigned(ctx, found))) {
    ctx.metrics.claimed('unsigned');
    return { ok: false, reason: 'unsigned', ...CLAIM_REFUSALS.unsigned };
  }
  const outcome = await ctx.state.claimApproval(id, argumentsDigest(args), ctx.now());
  ctx.metrics.claimed(outcome.ok ? 'claimed' : outcome.reason);
  if (!outcome.ok) return { ok: false, reason: outcome.reason, ...CLAIM_REFUSALS[outcome.reason] };
  ctx.events.publish({ type: 'approval', id, status: 'claimed' });
  return outcome;
}
