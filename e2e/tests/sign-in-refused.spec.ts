// Journey: a wrong key and an agent's key are refused at sign-in, with a message saying why.
import { expect, test } from '@playwright/test';
import { agentKey } from './demo.ts';

test('a wrong key and an agent key are refused', async ({ page }) => {
  await page.goto('/');
  await page.getByLabel('Member key').fill('tg_not-a-real-key');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('That key is not known.');
  await page.screenshot({ path: 'test-results/screens/sign-in.png', fullPage: true });

  await page.getByLabel('Member key').fill(agentKey());
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toContainText("agent's key");
  await expect(page.getByRole('button', { name: 'Sign out' })).toHaveCount(0);
});
