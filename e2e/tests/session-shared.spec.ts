// Journey: a member signed in in one tab opens the console in a second tab and is signed in there too;
// signing out in the second tab signs the first out as well (docs/console.md, "Signing in").
import { expect, test } from '@playwright/test';
import { memberKey, signIn } from './demo.ts';

test('a new tab shares the sign-in, and signing out in one tab signs out both', async ({ page, context }) => {
  await signIn(page, memberKey('viewer'));
  const second = await context.newPage();
  await second.goto('/#/approvals');
  await expect(second.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await expect(second.getByLabel('Member key')).toHaveCount(0);

  await second.getByRole('button', { name: 'Sign out' }).click();
  await expect(second.getByLabel('Member key')).toBeVisible();
  await expect(page.getByLabel('Member key')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign out' })).toHaveCount(0);
});
