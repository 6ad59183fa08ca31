// Journey: an owner starts a trial of a wider refunds policy and watches its report follow support-bot's calls
// as they arrive, without reloading the page.
import { type APIRequestContext, expect, test } from '@playwright/test';
import { editPrecondition, memberKey, signIn } from './demo.ts';
import { REFUNDS, sendRefundCalls } from './trial-calls.ts';

const PATH = `/v1/documents/${encodeURIComponent(REFUNDS)}`;
const owner = () => ({ authorization: `Bearer ${memberKey('owner')}` });

type Policy = { rules: { id: string; amount?: { gt?: string; lte?: string } }[] };

/** The policy text with the automatic refund limit at `limit` USD (the demo's v1 is 100, its v2 250). */
function withAutoLimit(text: string, limit: string): string {
  const policy = JSON.parse(text) as Policy;
  for (const rule of policy.rules) {
    if (rule.id === 'refund-auto' && rule.amount) rule.amount.lte = limit;
    if (rule.id === 'refund-approval' && rule.amount) rule.amount.gt = limit;
  }
  return `${JSON.stringify(policy, null, 2)}\n`;
}

async function store(request: APIRequestContext, content: string, reason: string): Promise<number> {
  const precondition = await editPrecondition(request, REFUNDS);
  const response = await request.post(`${PATH}/edits`, {
    headers: { ...owner(), ...precondition.headers },
    data: { content, reason, ...precondition.data },
  });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { version: { sequence: number } }).version.sequence;
}

/** The demo's v1 running (limit 100) and its v2 (limit 250) stored beside it as the candidate: its sequence. */
async function candidateBesideV1(request: APIRequestContext): Promise<number> {
  const current = (await (await request.get(PATH, { headers: owner() })).json()) as { text: string };
  const running = await store(request, withAutoLimit(current.text, '100'), 'the 100 USD automatic refund limit');
  const candidate = await store(request, withAutoLimit(current.text, '250'), 'refunds up to 250 USD without approval');
  expect((await request.post(`${PATH}/activate`, { headers: owner(), data: { sequence: running } })).ok()).toBe(true);
  return candidate;
}

test("a trial's report counts calls as they arrive, and lists the differing ones", async ({ page, request }) => {
  const candidate = await candidateBesideV1(request);
  const started = await request.post('/v1/trials', { headers: owner(), data: { document: REFUNDS, sequence: candidate, sample_rate: 1 } });
  expect(started.status()).toBe(201);
  try {
    await signIn(page, memberKey('owner'), '#/simulation');
    await page.getByLabel('Policy document').selectOption(REFUNDS);
    const report = page.getByRole('region', { name: 'Trial report' });
    await expect(report).toContainText(`Trial of version ${candidate} (running)`);
    const count = (label: string) =>
      report
        .locator('.sim-count')
        .filter({ has: page.getByRole('term').filter({ hasText: new RegExp(`^${label}$`) }) })
        .getByRole('definition');
    await expect(count('Calls')).toHaveText('0');

    // 50 USD: both versions allow it; 200 USD: v1 holds it for approval, v2 allows it.
    const [, differing] = await sendRefundCalls(request, ['50', '200']);
    await expect(count('Calls')).toHaveText('2');
    await expect(count('Agreed')).toHaveText('1');
    await expect(count('Differed')).toHaveText('1');
    await expect(report.getByRole('list', { name: 'Differing calls' })).toHaveText(differing as string);

    await sendRefundCalls(request, ['150']);
    await expect(count('Differed')).toHaveText('2');
    await page.screenshot({ path: 'test-results/screens/trial-report.png', fullPage: true });
  } finally {
    await request.post(`/v1/trials/${encodeURIComponent(REFUNDS)}/stop`, { headers: owner() });
  }
});
