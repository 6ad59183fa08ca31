// The refunds policy at the demo's v1 (automatic refund limit 100 USD) running, with its v2 (limit 250)
// stored beside it as a candidate, set up through the API as an owner would (docs/review.md, "The demo's revert").
import { type APIRequestContext, expect } from '@playwright/test';
import { editPrecondition, memberKey } from './demo.ts';

const POLICY = 'policies/refunds.policy.json';
const PATH = `/v1/documents/${encodeURIComponent(POLICY)}`;

type Policy = { rules: { id: string; amount?: { gt?: string; lte?: string } }[] };

/** refund-auto's limit in a policy text. */
function autoLimit(text: string): string | undefined {
  const rules = (JSON.parse(text) as Policy).rules;
  const approvalFrom = rules.find((r) => r.id === 'refund-approval')?.amount?.gt;
  const auto = rules.find((r) => r.id === 'refund-auto')?.amount?.lte;
  return auto === approvalFrom ? auto : undefined;
}

/** The policy text with refund-auto's limit set to `limit` USD, and refund-approval starting above it. */
function withAutoLimit(text: string, limit: string): string {
  const policy = JSON.parse(text) as Policy;
  for (const rule of policy.rules) {
    if (rule.id === 'refund-auto' && rule.amount) rule.amount.lte = limit;
    if (rule.id === 'refund-approval' && rule.amount) rule.amount.gt = limit;
  }
  return `${JSON.stringify(policy, null, 2)}\n`;
}

/** Stores `content` as a new version through the edit seam; answers its sequence. */
async function edit(request: APIRequestContext, content: string, reason: string): Promise<number> {
  const precondition = await editPrecondition(request, POLICY);
  const response = await request.post(`${PATH}/edits`, {
    headers: { ...owner(), ...precondition.headers },
    data: { content, reason, ...precondition.data },
  });
  expect(response.ok()).toBe(true);
  const outcome = (await response.json()) as { status: string; version?: { sequence: number } };
  expect(['applied', 'saved_not_running']).toContain(outcome.status);
  return outcome.version?.sequence ?? 0;
}

export const owner = () => ({ authorization: `Bearer ${memberKey('owner')}` });

/** A running version with the 100 USD limit and a stored, not running, candidate with 250: their sequences. */
export async function prepareVersions(request: APIRequestContext): Promise<{ running: number; candidate: number }> {
  const current = (await (await request.get(PATH, { headers: owner() })).json()) as { version: { sequence: number }; text: string };
  // Other journeys may have widened the limit already; then the 100 USD text is stored again first.
  const base =
    autoLimit(current.text) === '100'
      ? current.version.sequence
      : await edit(request, withAutoLimit(current.text, '100'), 'the 100 USD automatic refund limit');
  const candidate = await edit(request, withAutoLimit(current.text, '250'), 'refunds up to 250 USD without approval');
  const activate = await request.post(`${PATH}/activate`, { headers: owner(), data: { sequence: base } });
  expect(activate.ok()).toBe(true);
  return { running: base, candidate };
}
