// Journey: a viewer opens a document in the editor and is not offered Save.
import { expect, test } from '@playwright/test';
import { memberKey, signIn } from './demo.ts';

test('a viewer reads a document in the editor without a Save button', async ({ page }) => {
  await signIn(page, memberKey('viewer'), '#/edit/policies%2Frefunds.policy.json');
  await expect(page.getByRole('textbox', { name: 'Document text' })).toBeAttached();
  await expect(page.getByText('No problems found.')).toBeVisible();
  await expect(page.getByText('Your role can read this document but not save edits.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);
  await expect(page.getByLabel('Reason for the edit')).toHaveCount(0);
});
