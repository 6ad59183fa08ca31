// Journey: a person opens the console and sees the sample policy checked and valid.
import { expect, test } from '@playwright/test';
import { MONACO_MS } from './console-states.ts';

test('the console opens with a valid sample policy at revision 1', async ({ page }) => {
  await page.goto('/#/playground');

  await expect(page).toHaveTitle('Tollgate');
  await expect(page.getByRole('banner')).toContainText('Tollgate');
  await expect(page.getByRole('heading', { name: 'Policy playground', level: 1 })).toBeVisible();
  const editor = page.locator('.code-editor-host .monaco-editor');
  await expect(editor).toBeVisible({ timeout: MONACO_MS });
  await expect(editor.locator('.view-lines')).toContainText('tollgate/policy@1');
  await expect(editor.locator('.view-lines')).toContainText('refund-approval');
  await expect(page.getByRole('status')).toHaveText('Valid · revision 1');
  await expect(page.getByRole('list', { name: 'Problems' })).toHaveCount(0);
});
