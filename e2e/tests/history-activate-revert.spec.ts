// Journey: an owner diffs the refunds policy's last two versions, sees the widened limit, then activates and reverts,
// each confirmation previewing which tools change decision.
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
  // Three impact previews (beside the diff, in each confirmation) are worked out along the way.
  test.slow();
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
  // One summary over the agents' catalogues names the tool's change.
  const impact = page.getByRole('region', { name: 'Summary of the change' });
  await expect(impact).toContainText(`Version ${to} against version ${from}: widens security`);
  await expect(impact.getByRole('list', { name: 'Changes' })).toContainText(
    'issue_refund (refund.issue), amount in (100, 250] USD: require approval → allow (widens)',
  );

  // Activating the demo's v1 again (limit 100) narrows: the dialog says which tool changes, from what to what.
  await page.getByRole('button', { name: 'Activate version 1' }).click();
  const dialog = page.getByRole('group', { name: `Run version 1 of ${REFUNDS_ID}?` });
  const preview = dialog.getByRole('region', { name: 'Preview of version 1' });
  await expect(preview).toContainText(`Version 1 narrows (against version ${to})`);
  await expect(preview.getByRole('list', { name: 'Tools that change decision' }).getByRole('listitem').first()).toContainText(
    'issue_refund',
  );
  await expect(preview.getByRole('list', { name: 'Changes of issue_refund' })).toHaveText(
    'issue_refund (refund.issue), amount in (100, 250] USD: allow → require approval (narrows)',
  );
  await expect(preview).toContainText('Unchanged: read_order, search_orders');
  await page.screenshot({ path: 'test-results/screens/activate-impact-preview.png', fullPage: true });
  await page.getByRole('button', { name: 'Confirm activating version 1' }).click();
  await expect(versionItem(page, 1).getByText('running')).toBeVisible();
  await expect(versionItem(page, to).getByText('running')).toHaveCount(0);

  // The revert runs version `to` again, and its dialog previews that widening.
  await page.getByRole('button', { name: 'Revert', exact: true }).click();
  const revertDialog = page.getByRole('group', { name: `Run version ${to} again (it ran before the running one)?` });
  const back = revertDialog.getByRole('region', { name: `Preview of version ${to}` });
  await expect(back.getByRole('list', { name: 'Changes of issue_refund' })).toHaveText(
    'issue_refund (refund.issue), amount in (100, 250] USD: require approval → allow (widens)',
  );
  await page.getByRole('button', { name: 'Confirm revert' }).click();
  await expect(versionItem(page, to).getByText('running')).toBeVisible();
  await expect(versionItem(page, 1).getByText('running')).toHaveCount(0);
  await expect(impact).toContainText('widens security');
  expect(preconditions).toEqual([`activate "${stored}"`, `revert "${stored}"`]);
  await page.screenshot({ path: 'test-results/screens/history.png', fullPage: true });
});
