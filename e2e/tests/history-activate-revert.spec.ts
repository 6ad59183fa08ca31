// Journey: an owner diffs the refunds policy's last two versions, sees the widened limit, then activates and reverts.
import { expect, type Page, test } from '@playwright/test';
import { memberKey, signIn } from './demo.ts';
import { REFUNDS_ID, versionCount, widenRefundLimit } from './history.ts';

test.use({ viewport: { width: 1280, height: 1000 } });

/** The history list's item for one version. */
function versionItem(page: Page, sequence: number) {
  return page
    .getByRole('list', { name: 'Versions' })
    .getByRole('listitem')
    .filter({ has: page.getByText(`Version ${sequence}`, { exact: true }) });
}

test('an owner sees what an edit widens, activates version 1 and reverts', async ({ page, request }) => {
  const key = memberKey('owner');
  const { from, to } = await widenRefundLimit(request, key);
  const stored = await versionCount(request, key);

  // The console names the newest version it read as If-Match on activate and revert (docs/console.md).
  const preconditions: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && /\/(activate|revert)$/.test(r.url()))
      preconditions.push(`${r.url().split('/').at(-1)} ${r.headers()['if-match']}`);
  });
  await signIn(page, key, `#/documents/${encodeURIComponent(REFUNDS_ID)}`);
  await page.getByRole('link', { name: 'History and diffs' }).click();
  await expect(page.getByRole('heading', { name: `History of ${REFUNDS_ID}` })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Versions' }).getByRole('listitem')).toHaveCount(stored);
  await expect(versionItem(page, to).getByText('running')).toBeVisible();

  await expect(page.getByLabel('From version')).toHaveValue(String(from));
  await expect(page.getByLabel('To version')).toHaveValue(String(to));
  await expect(page.getByRole('textbox', { name: `Version ${to}` })).toBeAttached();
  const impact = page.getByRole('region', { name: 'Impact' });
  await expect(impact).toContainText('Widens security');
  await expect(impact.getByRole('list', { name: 'Widened subjects' })).toContainText('rules/refund-auto amount lte 100 -> 250');

  await page.getByRole('button', { name: 'Activate version 1' }).click();
  await page.getByRole('button', { name: 'Confirm activating version 1' }).click();
  await expect(versionItem(page, 1).getByText('running')).toBeVisible();
  await expect(versionItem(page, to).getByText('running')).toHaveCount(0);

  await page.getByRole('button', { name: 'Revert', exact: true }).click();
  await page.getByRole('button', { name: 'Confirm revert' }).click();
  await expect(versionItem(page, to).getByText('running')).toBeVisible();
  await expect(versionItem(page, 1).getByText('running')).toHaveCount(0);
  await expect(impact).toContainText('Widens security');
  expect(preconditions).toEqual([`activate "${stored}"`, `revert "${stored}"`]);
  await page.screenshot({ path: 'test-results/screens/history.png', fullPage: true });
});
