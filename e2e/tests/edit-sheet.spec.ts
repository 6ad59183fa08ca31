// Journey: an owner opens the rule sheet in the editor, types a refused line, sees its marker and problem, fixes it.
import { expect, test } from '@playwright/test';
import { memberKey, signIn } from './demo.ts';

test('a refused sheet line is marked on its line and listed, and fixing it changes the Colang', async ({ page }) => {
  await signIn(page, memberKey('owner'), '#/documents/sheets%2Fsupport.rules.yaml');
  await page.getByRole('link', { name: 'Edit' }).click();

  const editor = page.getByRole('textbox', { name: 'Document text' });
  await expect(editor).toBeAttached();
  const colang = page.getByRole('figure', { name: 'Colang' });
  await expect(colang).toContainText('define flow export_customers');
  await expect(colang).not.toContainText('define flow send_payout');

  // send_payout's rule (line 6) gets a key sheets do not know.
  await page
    .locator('.view-line')
    .filter({ hasText: /requires_confirmation/ })
    .getByText('requires_confirmation')
    .dblclick();
  await page.keyboard.type('colour');

  const problem = page.getByRole('list', { name: 'Problems' }).getByRole('listitem').filter({ hasText: 'rule_sheet_unsupported' });
  await expect(problem).toContainText('line 6');
  await expect(problem).toContainText('"colour" is not a key of a rule');
  await expect(colang).toContainText('refused');

  // The marker sits on line 6, the line with the unknown key.
  const badLine = page.locator('.view-line').filter({ hasText: /colour/ });
  const squiggle = page.locator('.squiggly-error');
  await expect(squiggle).toHaveCount(1);
  const lineBox = await badLine.boundingBox();
  const markBox = await squiggle.boundingBox();
  expect(lineBox && markBox && Math.abs(lineBox.y - markBox.y) < lineBox.height).toBe(true);
  await page.screenshot({ path: 'test-results/screens/editor-sheet-refused.png', fullPage: true });

  // Clicking the problem moves the cursor to its line; replacing the key fixes the sheet.
  await problem.getByRole('button').click();
  const cursorLine = await page.locator('.current-line').first().boundingBox();
  expect(cursorLine && lineBox && Math.abs(cursorLine.y - lineBox.y) < lineBox.height).toBe(true);
  await badLine.getByText('colour').dblclick();
  await page.keyboard.type('never');
  await expect(page.getByText('No problems found.')).toBeVisible();
  await expect(squiggle).toHaveCount(0);
  await expect(colang).toContainText('define flow send_payout');
  await expect(page.getByRole('figure', { name: 'Overlay' })).toContainText('"at_most": 5');
  await page.screenshot({ path: 'test-results/screens/editor-sheet.png', fullPage: true });
});
