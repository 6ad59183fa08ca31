// Journey (docs/rulesets.md, "Versions and lifecycle"): an owner sees a refusal naming the rule at fault, archives the
// Support set pointing agents at a replacement after reading its recent runs, sees runs refused, finds it in the list
// under Archived (not Active), and restores it.
import { type APIRequestContext, expect, test } from '@playwright/test';
import { demoKeys, memberKey, signIn } from './demo.ts';

const SUPPORT = 'rulesets/support.ruleset.json';
const NEXT = 'rulesets/support-next.ruleset.json';
const DRAFT_RULE = 'colang/ui-trial.co';
const POLICY = 'policies/refunds.policy.json';

test.use({ viewport: { width: 1280, height: 800 } });

const owner = () => ({ authorization: `Bearer ${memberKey('owner')}` });

/** A Colang rule in draft and a second set pinning it, so the second set cannot become active. */
async function seedDraftSet(request: APIRequestContext): Promise<void> {
  const rule = `/v1/documents/${encodeURIComponent(DRAFT_RULE)}`;
  if ((await request.get(rule, { headers: owner() })).status() === 404) {
    const saved = await request.post(`${rule}/edits`, {
      headers: owner(),
      data: { content: 'define flow read_order\n  refuse\n', reason: 'a rule still in draft', based_on: null },
    });
    expect(saved.status(), await saved.text()).toBe(201);
  }
  expect((await request.post(`${rule}/status`, { headers: owner(), data: { status: 'draft' } })).status()).toBe(200);
  if ((await request.get(`/v1/rulesets/${encodeURIComponent(NEXT)}`, { headers: owner() })).status() === 404) {
    const created = await request.post('/v1/rulesets', {
      headers: owner(),
      data: { id: NEXT, name: 'Support next', pins: [{ rule_id: POLICY }, { rule_id: DRAFT_RULE }] },
    });
    expect(created.status(), await created.text()).toBe(201);
  }
}

async function runsOfSupport(request: APIRequestContext): Promise<number> {
  const response = await request.get(`/v1/rulesets/${encodeURIComponent(SUPPORT)}`, { headers: owner() });
  return ((await response.json()) as { runs_last_30_days: number }).runs_last_30_days;
}

async function refundsBotCall(request: APIRequestContext): Promise<{ decision: string; code?: string | null }> {
  const agent = demoKeys().agents.find((a) => a.name === 'refunds-bot');
  if (!agent) throw new Error('the demo has no refunds-bot');
  const response = await request.post('/v1/agents/refunds-bot/calls', {
    headers: { authorization: `Bearer ${agent.key}` },
    data: { tool: 'issue_refund', arguments: { amount: '5' } },
  });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as { decision: string; code?: string | null };
}

test('an owner reads a refusal naming the rule at fault, archives Support with a replacement, and restores it', async ({
  page,
  request,
}) => {
  await seedDraftSet(request);

  // A set pinning a draft rule cannot become active: the refusal names the rule.
  await signIn(page, memberKey('owner'), `#/rulesets/${encodeURIComponent(NEXT)}`);
  await page.getByLabel('New status').selectOption('active');
  await page.getByRole('button', { name: 'Change status' }).click();
  await page.getByRole('button', { name: 'Confirm active' }).click();
  const refusal = page.getByRole('alert').filter({ hasText: 'RULESET_PINS_DRAFT' });
  await expect(refusal.getByRole('list', { name: 'Rules at fault' })).toHaveText(DRAFT_RULE);
  await page.screenshot({ path: 'test-results/screens/ruleset-refusal.png', fullPage: true });

  // Archive Support after reading how many runs it had, pointing agents at the other set.
  const runs = await runsOfSupport(request);
  await page.goto(`/#/rulesets/${encodeURIComponent(SUPPORT)}`);
  await page.getByRole('button', { name: 'Archive' }).click();
  await expect(page.getByText(runs === 1 ? '1 run in the last 30 days' : `${runs} runs in the last 30 days`)).toBeVisible();
  await page.getByLabel('Replacement for agents').selectOption(NEXT);
  await page.screenshot({ path: 'test-results/screens/ruleset-archive-confirm.png', fullPage: true });
  await page.getByRole('button', { name: 'Confirm archive' }).click();
  // The set's heading carries its status badge.
  await expect(page.getByRole('heading', { name: 'Support archived' })).toBeVisible();
  await expect(page.getByRole('link', { name: NEXT })).toBeVisible();

  // Runs are refused, in the console and for the agent, with the code said plainly.
  await page.getByLabel('Tool from the catalogue').selectOption('issue_refund');
  await page.getByRole('button', { name: /^Run version \d+$/ }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'RULESET_ARCHIVED' })).toContainText(NEXT);
  expect(await refundsBotCall(request)).toMatchObject({ decision: 'deny', code: 'RULESET_ARCHIVED' });
  await page.screenshot({ path: 'test-results/screens/ruleset-archived.png', fullPage: true });

  // The list shows every status unless narrowed: Support under Archived, not under Active.
  await page.goto('/#/rulesets');
  const listed = (name: string) => page.getByRole('list', { name: 'Rule sets' }).getByRole('link', { name, exact: true });
  await expect(listed('Support')).toBeVisible();
  await expect(listed('Support next')).toBeVisible();
  await page.getByLabel('Show').selectOption('archived');
  await expect(listed('Support')).toBeVisible();
  await expect(listed('Support next')).toHaveCount(0);
  await page.getByLabel('Show').selectOption('active');
  await expect(listed('Support')).toHaveCount(0);
  await page.goto(`/#/rulesets/${encodeURIComponent(SUPPORT)}`);

  await page.getByRole('button', { name: 'Restore' }).click();
  await page.getByRole('button', { name: 'Confirm restore' }).click();
  await expect(page.getByRole('heading', { name: 'Support active' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Archive' })).toBeVisible();
  expect((await refundsBotCall(request)).code).not.toBe('RULESET_ARCHIVED');
});
