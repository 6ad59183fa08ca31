// Journey: a reviewer opens the history of a policy whose change takes the server seconds to analyse (fourteen
// chained deny rules of two conditions each, the last one edited), sees where the analysis stands, cancels it,
// and the server stops it: the review queue empties long before its time budget (docs/review.md, "Budgets and
// cancelling"; docs/console.md, "Reviewing a change").
/// <reference lib="dom" />
import { expect, test } from '@playwright/test';
import { seriousViolations } from './axe.ts';
import { memberKey, signIn } from './demo.ts';
import { ownPolicyId, REFUNDS_TEXT, saveVersion } from './own-policy.ts';

const LINKS = 14;

/** The refunds policy behind `LINKS` chained deny rules on orders.read, the last one's effect as given. */
function chained(last: 'deny' | 'require_approval'): string {
  const policy = JSON.parse(REFUNDS_TEXT) as { rules: unknown[] };
  const chain = Array.from({ length: LINKS }, (_, i) => ({
    id: `chain-${i}`,
    actions: ['orders.read'],
    when: [
      { path: `/a${i}`, eq: 'x' },
      { path: `/b${i}`, eq: 'y' },
    ],
    effect: i === LINKS - 1 ? last : 'deny',
    ...(i === LINKS - 1 && last === 'require_approval' ? { approvers: { roles: ['owner'] } } : {}),
  }));
  return `${JSON.stringify({ ...policy, rules: [...chain, ...policy.rules] }, null, 2)}\n`;
}

test('a reviewer cancels a long analysis and the server stops it', async ({ page }) => {
  test.setTimeout(180_000);
  const key = memberKey('owner');
  const id = ownPolicyId('cancel');
  const first = await saveVersion(page.request, key, id, chained('deny'), null, 'the chain');
  await saveVersion(page.request, key, id, chained('require_approval'), first, 'the last link held');
  await signIn(page, memberKey('viewer'));
  await page.goto(`/#/history/${encodeURIComponent(id)}`);

  const summary = page.getByRole('region', { name: 'Summary of the change' });
  await test.step('the summary says where the analysis stands', async () => {
    await expect(summary.getByRole('status')).toContainText(/running for \d+ s of at most \d+ s/, { timeout: 30_000 });
    expect(await seriousViolations(page)).toEqual([]);
  });

  await test.step('Cancel stops it on the server', async () => {
    await summary.getByRole('button', { name: 'Cancel' }).click();
    await expect(summary.getByRole('status')).toContainText('The analysis was cancelled.');
    await expect
      .poll(
        async () => {
          const r = await page.request.get('/v1/review/queue', { headers: { authorization: `Bearer ${memberKey('viewer')}` } });
          return ((await r.json()) as { jobs: unknown[] }).jobs.length;
        },
        { timeout: 10_000 },
      )
      .toBe(0);
    await expect(summary.getByRole('button', { name: 'Run it again' })).toBeVisible();
  });
});
