// support-bot's calls that feed the refunds policy's trial, in one place (docs/console.md, "Simulation").
import { join } from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { CompiledTool } from '@tollgate/engine';
import { FolderDocumentStore, PolicyTrials } from '@tollgate/store';

export const REFUNDS = 'policies/refunds.policy.json';

/** The demo catalogue's issue_refund (apps/api/src/server/demo.ts). */
const ISSUE_REFUND = new CompiledTool({
  name: 'issue_refund',
  action: 'refund.issue',
  amount: { pointer: '/amount', currency: 'USD' },
});

/**
 * Sends support-bot's issue_refund calls, one per amount, so that each is counted by the refunds policy's
 * trial; answers their call ids. The gate of this branch does not yet run trials, so each call is decided
 * here by the store's PolicyTrials on the served data folder, as the gate will: the server reads the counts
 * from that folder. Once gate calls feed trials, post each to `/v1/agents/support-bot/calls` with
 * `agentKey()` instead and answer the decision ids it returns.
 */
export async function sendRefundCalls(_request: APIRequestContext, amounts: readonly string[]): Promise<string[]> {
  const dataDir = process.env.TOLLGATE_E2E_DATA;
  if (!dataDir) throw new Error('TOLLGATE_E2E_DATA is not set; run through e2e/playwright.config.ts');
  const store = await FolderDocumentStore.open(join(dataDir, 'documents'), { watch: false });
  try {
    const trials = new PolicyTrials(store);
    const ids: string[] = [];
    for (const amount of amounts) {
      const id = `e2e-refund-${amount}-${Date.now()}-${ids.length}`;
      await trials.decide(REFUNDS, ISSUE_REFUND, { amount }, id);
      ids.push(id);
    }
    return ids;
  } finally {
    await store.close();
  }
}
