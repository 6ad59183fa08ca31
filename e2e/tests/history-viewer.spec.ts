// Journey: a viewer reads a document's history and diff without being offered Activate or Revert.
import { expect, test } from '@playwright/test';
import { memberKey, signIn } from './demo.ts';
import { REFUNDS_ID } from './history.ts';

test('a viewer compares versions without Activate or Revert buttons', async ({ page }) => {
  await signIn(page, memberKey('viewer'), `#/history/${encodeURIComponent(REFUNDS_ID)}`);
  await expect(page.getByRole('list', { name: 'Versions' }).getByRole('listitem').first()).toBeVisible();
  await expect(page.getByLabel('From version')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Summary of the change' })).toContainText(/widens? security|nothing changes/i);
  await expect(page.getByRole('button', { name: /^Activate/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Revert' })).toHaveCount(0);
});
