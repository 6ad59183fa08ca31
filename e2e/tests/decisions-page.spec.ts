// Journey: the Decisions page lists the gate's recorded calls, and its filter keeps only the calls a shadow
// decides differently, each with its difference (docs/console.md, "Decisions").
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
