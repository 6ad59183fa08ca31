// support-bot's calls that feed the refunds policy's trial, in one place (docs/console.md, "Simulation").
import { type APIRequestContext, expect } from '@playwright/test';
import { agentKey, memberKey } from './demo.ts';

export const REFUNDS = 'policies/refunds.policy.json';

/**
 * Sends support-bot's issue_refund calls to the gate, one per amount; the gate samples each for the refunds
 * policy's trial after answering it (docs/review.md, "Trials"). Answers their call ids. A call the running
 * version holds for approval is denied again at once, so no other journey finds it waiting.
 */
export async function sendRefundCalls(request: APIRequestContext, amounts: readonly string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const amount of amounts) {
    const r = await request.post('/v1/agents/support-bot/calls', {
      headers: { authorization: `Bearer ${agentKey()}` },
      data: { tool: 'issue_refund', arguments: { amount, order: `T-${ids.length}` } },
    });
    expect(r.status(), await r.text()).toBe(200);
    const answer = (await r.json()) as { call_id: string; decision: string; approval?: { id: string } };
    if (answer.approval) {
      const denied = await request.post(`/v1/approvals/${encodeURIComponent(answer.approval.id)}/deny`, {
        headers: { authorization: `Bearer ${memberKey('approver')}` },
        data: { reason: 'a trial journey call only' },
      });
      expect(denied.ok()).toBe(true);
    }
    ids.push(answer.call_id);
  }
  return ids;
}
