// Journey: the owner simulates the running refunds policy against a wider candidate, over recorded and pasted calls.
/// <reference lib="dom" />
import { expect, test } from '@playwright/test';
import { agentKey, memberKey, signIn } from './demo.ts';
import { owner, prepareVersions } from './refund-candidate.ts';

const POLICY = 'policies/refunds.policy.json';

// datetime-local inputs read in the browser's zone; UTC makes them match the ISO times below.
test.use({ timezoneId: 'UTC', viewport: { width: 1280, height: 1100 } });

test('a wider candidate differs on the 200 USD refund, for recorded and pasted calls', async ({ page, request }) => {
  const since = new Date(Math.floor(Date.now() / 1000) * 1000 - 1000).toISOString().slice(0, 19);
  const { running, candidate } = await prepareVersions(request);
  for (const amount of ['50', '200', '500']) {
    const call = await request.post('/v1/agents/support-bot/calls', {
      headers: { authorization: `Bearer ${agentKey()}` },
      data: { tool: 'issue_refund', arguments: { amount } },
    });
    expect(call.ok()).toBe(true);
  }

  await signIn(page, memberKey('owner'), '#/simulation');
  await expect(page.getByRole('link', { name: 'Simulation' })).toHaveAttribute('aria-current', 'page');
  await page.getByLabel('Policy document').selectOption(POLICY);
  await page.getByLabel('Policy version').selectOption(String(running));
  await expect(page.getByLabel('Candidate version')).toHaveValue('');
  await page.getByLabel('Candidate version').selectOption(String(candidate));
  await page.getByRole('radio', { name: 'Recorded calls of an agent' }).check();
  await page.getByLabel('Agent', { exact: true }).fill('support-bot');
  await page.getByLabel('Since', { exact: true }).fill(since);
  await page.getByRole('button', { name: 'Run' }).click();

  const status = page.getByRole('status').filter({ hasText: /calls:/ });
  await expect(status).toHaveText('3 calls: 2 agreed, 1 differed, 0 not evaluable');
  const table = page.getByRole('table', { name: new RegExp(`${POLICY}: Version ${running} against candidate: version ${candidate}`) });
  const differing = table.getByRole('row').filter({ hasText: '200 USD' });
  await expect(differing).toContainText('differed');
  await expect(differing).toContainText('rule refund-approval');
  await expect(differing).toContainText('rule refund-auto');
  await expect(table.getByRole('row').filter({ hasText: '50 USD' }).first()).toContainText('agreed');
  await page.screenshot({ path: 'test-results/screens/simulation.png', fullPage: true });

  await page.getByRole('radio', { name: 'Pasted JSON' }).check();
  const pasted = page.getByLabel('Calls (JSON)', { exact: true });
  await pasted.fill('[{"tool": ');
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(page.getByRole('alert')).toContainText('The calls are not JSON');

  const tool = { name: 'issue_refund', action: 'refund.issue', amount: { pointer: '/amount', currency: 'USD' } };
  // A member named twice is refused as the server would refuse it, and shown where it was typed.
  const twice = `[{"tool": ${JSON.stringify(tool)}, "arguments": {"amount": "5000", "amount": "5"}}]`;
  await pasted.fill(twice);
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(page.getByRole('alert')).toContainText(/The calls are not exact JSON: line 1, column \d+: DUPLICATE_MEMBER/);
  await expect(pasted).toBeFocused();
  await expect(pasted).toHaveAttribute('aria-invalid', 'true');
  const selected = await pasted.evaluate((field: HTMLTextAreaElement) => [field.selectionStart, field.selectionEnd]);
  expect(selected).toEqual([twice.lastIndexOf('"amount"'), twice.lastIndexOf('"amount"') + '"amount"'.length]);
  await pasted.fill(
    JSON.stringify([
      { tool, arguments: { amount: '180' } },
      { tool, arguments: null },
    ]),
  );
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status).toHaveText('2 calls: 0 agreed, 1 differed, 1 not evaluable');
  await expect(page.getByRole('row').filter({ hasText: '{"amount":"180"}' })).toContainText('differed');
  await expect(page.getByRole('row').filter({ hasText: 'arguments unknown' })).toContainText('ARGUMENTS_REQUIRED');
  await page.screenshot({ path: 'test-results/screens/simulation-pasted.png', fullPage: true });

  // A trial of the candidate shows its report beside the simulation; it is stopped again after.
  const trial = await request.post('/v1/trials', { headers: owner(), data: { document: POLICY, sequence: candidate, sample_rate: 1 } });
  expect(trial.status()).toBe(201);
  try {
    await page.reload();
    // Other journeys add policies, so the picker's first document need not be this one.
    await page.getByLabel('Policy document').selectOption(POLICY);
    const report = page.getByRole('region', { name: 'Trial report' });
    await expect(report).toContainText(`Trial of version ${candidate} (running)`);
    await expect(report).toContainText('Sampled');
    await expect(report).toContainText('Differed');
  } finally {
    await request.post(`/v1/trials/${encodeURIComponent(POLICY)}/stop`, { headers: owner() });
  }
});

test('a recorded-calls bound the clocks skip is refused at its field, never moved, and nothing runs', async ({ browser }) => {
  // In Berlin the clocks go from 02:00 to 03:00 on 29 March 2026: 02:30 that night is no time at all.
  const context = await browser.newContext({ timezoneId: 'Europe/Berlin' });
  const page = await context.newPage();
  try {
    await signIn(page, memberKey('owner'), '#/simulation');
    await page.getByLabel('Policy document').selectOption(POLICY);
    await page.getByRole('radio', { name: 'Recorded calls of an agent' }).check();
    const since = page.getByLabel('Since', { exact: true });
    // The input keeps the value as the browser writes it, without a zero second.
    await since.fill('2026-03-29T02:30:00');
    await page.getByRole('button', { name: 'Run' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      "Since: 2026-03-29T02:30 is not a time on this computer's clock (no such date, or the clocks skip it).",
    );
    await expect(since).toBeFocused();
    await expect(since).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByRole('status').filter({ hasText: /calls:/ })).toHaveCount(0);
    // A time that exists runs, and the problem goes.
    await since.fill('2026-03-29T03:30:00');
    await page.getByRole('button', { name: 'Run' }).click();
    await expect(page.getByRole('status').filter({ hasText: /calls:/ })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expect(since).toHaveAttribute('aria-invalid', 'false');
  } finally {
    await context.close();
  }
});
