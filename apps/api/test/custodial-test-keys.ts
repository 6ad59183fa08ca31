// The secret the tests seal members' custodial keys with, as an operator's environment gives it
// (server/member-key-secret.ts): vitest.config.ts sets TOLLGATE_MEMBER_KEY_SECRET for every test and the processes
// they start; a store made directly in a test is given the same keys.
import type { DecideOutcome, DecisionWrite } from '../src/server/state/approvals/model.ts';
import { custodialDecision } from '../src/server/state/approvals/signed-decision.ts';
import { CustodialKeys } from '../src/server/state/members/custodial-keys.ts';
import type { MemberRow } from '../src/server/state/members/model.ts';
import type { StateStore } from '../src/server/state/state-store.ts';

export const TEST_MEMBER_KEY_SECRET = process.env.TOLLGATE_MEMBER_KEY_SECRET || 'tollgate-tests-member-key-secret-0123456789';

export function testCustodialKeys(): CustodialKeys {
  return new CustodialKeys(TEST_MEMBER_KEY_SECRET);
}

/**
 * Decides request `id` through the store as the API does for a custodial decision (approvals/decide.ts): signed with
 * the member's sealed key, opened with the store's secret. A missing request is sent on, for the store to refuse.
 */
export async function decideAs(
  state: StateStore,
  id: string,
  member: MemberRow,
  decision: 'approved' | 'denied',
  reason: string | null,
  now: Date,
): Promise<DecideOutcome> {
  const row = await state.findApproval(id);
  const write: DecisionWrite = row
    ? custodialDecision(row, member.id, state.custodial.open(member.private_key), decision, reason, now)
    : { status: decision, decided_by: member.id, decided_at: now.toISOString(), reason, signature: '', signed_content: '', proof: null };
  return state.decideApproval(id, write, now);
}
