// Journey: the owner signs in, finds the running refunds policy in the documents tree and reads its history.
import { expect, test } from '@playwright/test';
import { memberKey, signIn } from './demo.ts';

test('the owner sees the documents by kind and opens the refunds policy with its history', async ({ page }) => {
  await signIn(page, memberKey('owner'));

  const policies = page.getByRole('list', { name: 'policy' });
  const refunds = policies.getByRole('listitem').filter({ hasText: 'policies/refunds.policy.json' });
  await expect(refunds).toContainText('running');
  await expect(refunds).toContainText('v1');
  await expect(page.getByRole('list', { name: 'catalogue' })).toContainText('catalogue.yaml');
  await page.screenshot({ path: 'test-results/screens/documents.png', fullPage: true });

  await refunds.getByRole('button').click();
  await expect(page.getByRole('heading', { name: 'policies/refunds.policy.json' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Running text' })).toContainText('"schema": "tollgate/policy@1"');
  const version = page.getByRole('list', { name: 'Versions' }).getByRole('listitem');
  await expect(version).toHaveCount(1);
  await expect(version).toContainText('Version 1');
  await expect(version).toContainText('running');
  await expect(version).toContainText('system: demo seed');
  await expect(version).toContainText('the demo workspace');
  await page.screenshot({ path: 'test-results/screens/document-history.png', fullPage: true });
});
