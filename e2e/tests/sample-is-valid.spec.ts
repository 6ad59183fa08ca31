// Journey: a person opens the console and sees the sample policy checked and valid.
import { expect, test } from '@playwright/test';

test('the console opens with a valid sample policy at revision 1', async ({ page }) => {
  await page.goto('/#/playground');

  await expect(page).toHaveTitle('Tollgate');
  await expect(page.getByRole('banner')).toContainText('Tollgate');
  await expect(page.getByRole('heading', { name: 'Editor', level: 1 })).toBeVisible();
  await expect(page.getByLabel('Policy document')).toHaveValue(/"schema": "tollgate\/policy@1"/);
  await expect(page.getByLabel('Policy document')).toHaveValue(/"id": "refund-approval"/);
  await expect(page.getByRole('status')).toHaveText('Valid · revision 1');
  await expect(page.getByRole('list', { name: 'Problems' })).toHaveCount(0);
});
