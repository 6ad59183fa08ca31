// Journey: an owner starts a trial of a wider refunds policy and watches its report follow support-bot's calls
// as they arrive, without reloading the page.
import { expect, test } from '@playwright/test';
import { memberKey, signIn } from './demo.ts';
import { owner, prepareVersions } from './refund-candidate.ts';
import { REFUNDS, sendRefundCalls } from './trial-calls.ts';

test("a trial's report counts calls as they arrive, and lists the differing ones", async ({ page, request }) => {
  const { candidate } = await prepareVersions(request);
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
    // The differing call with both answers: v1 holds 200 USD for approval, the candidate allows it.
    const differences = report.getByRole('list', { name: 'Differing calls' }).getByRole('listitem');
    await expect(differences).toHaveCount(1);
    await expect(differences.first()).toContainText(differing as string);
    await expect(differences.first()).toContainText('running require approval');
    await expect(differences.first()).toContainText('candidate allow');

    await sendRefundCalls(request, ['150']);
    await expect(count('Differed')).toHaveText('2');
    await page.screenshot({ path: 'test-results/screens/trial-report.png', fullPage: true });
  } finally {
    await request.post(`/v1/trials/${encodeURIComponent(REFUNDS)}/stop`, { headers: owner() });
  }
});
