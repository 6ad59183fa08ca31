// Why a call was held, for the people deciding it (docs/console.md, "Approvals inbox"): the policy version that
// held it decides the kept arguments again and the engine explains the decision (policy/explanation.ts: the
// rule, its amount bounds and conditions, never an argument's value); when a candidate version of that policy
// is under trial (docs/review.md, "Trials on live calls"), what the candidate would decide. Recomputed on read,
// never stored; advisory: anything that cannot be read again answers null rather than failing the read.
import { type Explanation, evaluatePolicy } from '@tollgate/engine';
import type { AppContext } from '../context.ts';
import { loadAgentCached } from '../gate/load-agent.ts';
import type { ApprovalRow } from '../state/approvals/model.ts';

export interface HoldExplanation {
  /** The engine's explanation of the held decision, by the version that held the call. */
  explanation: Explanation;
  /** What the candidate version under trial would decide; null when no trial of the policy runs. */
  trial: { candidate: number; decision: string; rule: string | null } | null;
}

/**
 * The explanation of `row`'s hold, from the call's kept `args`; null once the arguments are forgotten, or when
 * the tool or the policy version can no longer be read.
 *
 * @example
 * await explainHold(ctx, row, { amount: '205' })
 * // { explanation: { summary: 'rule refund-approval (require_approval) decided', rule: { amount: { currency: 'USD', bounds: { gt: '100' } ... } } }, trial: null }
 */
export async function explainHold(ctx: AppContext, row: ApprovalRow, args: unknown): Promise<HoldExplanation | null> {
  if (args === null || args === undefined) return null;
  try {
    const [{ loaded }, version, members] = await Promise.all([
      loadAgentCached(ctx, row.agent),
      ctx.store.getVersion(row.policy_document, row.policy_sequence),
      ctx.state.judgedMembers(),
    ]);
    const tool = loaded.prepared.tools.get(row.tool)?.compiled;
    if (!tool || !version) return null;
    const now = new Date(row.created_at);
    const held = evaluatePolicy(ctx.trials.policyOf(version.digest, version.text), tool, args, { members, now });
    const running = await ctx.trials.active(row.policy_document);
    if (!running || running.candidate === row.policy_sequence) return { explanation: held.explanation, trial: null };
    const candidate = await ctx.store.getVersion(row.policy_document, running.candidate);
    if (!candidate) return { explanation: held.explanation, trial: null };
    const would = evaluatePolicy(ctx.trials.policyOf(candidate.digest, candidate.text), tool, args, { members, now });
    return { explanation: held.explanation, trial: { candidate: running.candidate, decision: would.decision, rule: would.rule } };
  } catch {
    return null;
  }
}
