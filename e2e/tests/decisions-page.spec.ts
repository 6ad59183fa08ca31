// Journey: the Decisions page lists the gate's recorded calls, and its filter keeps only the calls a shadow
// decides differently, each with its difference; a call's receipt is shown and downloaded (docs/console.md,
// "Decisions").
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { memberKey, signIn } from './demo.ts';
import { SHADOWED_SHEET, sendSheetCall, startRefusingShadow, stopShadow } from './shadow-sheet.ts';

test('a call the shadow refuses is found with the filter, with its difference', async ({ page, request }) => {
  await startRefusingShadow(request);
  try {
    const read = await sendSheetCall(request, 'read_order');
    const search = await sendSheetCall(request, 'search_orders');

    await signIn(page, memberKey('viewer'));
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Decisions' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Decisions' })).toBeFocused();
    const table = page.getByRole('table', { name: /Recorded decisions/ });
    const readRow = table.getByRole('row').filter({ hasText: read });
    await expect(readRow).toContainText('read_order');
    await expect(readRow).toContainText('allow');
    await expect(table.getByRole('row').filter({ hasText: search })).toBeVisible();
    // Newest first: the second call is above the first.
    await expect(table.getByRole('row').nth(1)).toContainText(search);

    await page.getByRole('checkbox', { name: 'Only calls a shadow decides differently' }).check();
    const differing = page.getByRole('table', { name: /Calls a shadow decides differently/ });
    const row = differing.getByRole('row').filter({ hasText: read });
    await expect(row.getByRole('list', { name: 'Shadow differences' })).toHaveText(`${SHADOWED_SHEET} · read_order: allow → refuse`);
    await expect(differing.getByRole('row').filter({ hasText: search })).toHaveCount(0);
    // Every row the filter keeps has a difference (the header row aside).
    const rows = await differing.getByRole('row').count();
    await expect(differing.getByRole('list', { name: 'Shadow differences' })).toHaveCount(rows - 1);
  } finally {
    await stopShadow(request);
  }
});

test('"Load older" adds the next page below the first', async ({ page, request }) => {
  // One page is 50 decisions: the first of 51 new calls is on the second page.
  const ids: string[] = [];
  for (let i = 0; i < 51; i++) ids.push(await sendSheetCall(request, 'search_orders'));

  await signIn(page, memberKey('viewer'), '#/decisions');
  const rows = page.getByRole('table', { name: /Recorded decisions/ }).getByRole('row');
  await expect(rows.filter({ hasText: ids[50] as string })).toBeVisible();
  await expect(rows).toHaveCount(51);
  await expect(rows.filter({ hasText: ids[0] as string })).toHaveCount(0);

  await page.getByRole('button', { name: 'Load older' }).click();
  await expect(rows.filter({ hasText: ids[0] as string })).toBeVisible();
  await expect(rows.nth(51)).toContainText(ids[0] as string);
});

test("a call's receipt shows where the record holds it and downloads as JSON", async ({ page, request }) => {
  const id = await sendSheetCall(request, 'read_order');
  await signIn(page, memberKey('viewer'), '#/decisions');
  const row = page
    .getByRole('table', { name: /Recorded decisions/ })
    .getByRole('row')
    .filter({ hasText: id });
  await row.getByRole('button', { name: 'Receipt' }).click();
  await expect(row).toContainText(/Entry \d+ of writer/);
  await expect(row).toContainText(/Checkpoint at entry \d+, signed/);
  const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('link', { name: 'Download receipt' }).click()]);
  expect(download.suggestedFilename()).toBe(`receipt-${id}.json`);
  const receipt = JSON.parse(readFileSync((await download.path()) as string, 'utf8'));
  expect(receipt).toMatchObject({ receipt: 1, call_id: id, covered: true, decision: { kind: 'decision' } });
});
