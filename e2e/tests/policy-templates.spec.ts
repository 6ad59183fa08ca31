// Journey: a developer picks a template, sets its parameters (a refused value first), previews the draft,
// creates it as a new policy through the edit seam with its example suite stored beside it, and opens it
// with the template's examples passing.
import { expect, test } from '@playwright/test';
import { memberKey, signIn } from './demo.ts';

test.use({ viewport: { width: 1280, height: 1400 } });

test('a template with its own limit becomes a new policy, opened in the editor', async ({ page }) => {
  const name = `support-${Date.now().toString(36)}`;
  await signIn(page, memberKey('developer'), '#/templates');
  await expect(page.getByRole('list', { name: 'Templates' }).getByRole('listitem')).toHaveCount(4);
  await page.getByRole('button', { name: 'Use this template: Support refunds' }).click();

  const form = page.getByRole('form', { name: 'Parameters of Support refunds' });
  const autoLimit = form.getByLabel('auto_limit', { exact: true });
  await autoLimit.fill('5000');
  await expect(form).toContainText('must be strictly below');
  await expect(form.getByRole('button', { name: 'Create the draft' })).toBeDisabled();
  await autoLimit.fill('50.00');
  const preview = page.getByRole('figure', { name: 'Draft preview' });
  await expect(preview).toContainText('"lte": "50"');

  await form.getByLabel('Policy name').fill(name);
  await form.getByRole('button', { name: 'Create the draft' }).click();
  const outcome = page.getByRole('status', { name: 'Create outcome' });
  await expect(outcome).toContainText('applied');
  await expect(outcome).toContainText(`policies/${name}.policy.json, version 1`);
  await expect(outcome).toContainText(`Example calls policies/${name}.examples.json: stored beside it.`);
  await page.screenshot({ path: 'test-results/screens/templates-draft-created.png', fullPage: true });

  await outcome.getByRole('link', { name: `Open policies/${name}.policy.json in the editor` }).click();
  await expect(page.getByRole('heading', { name: `policies/${name}.policy.json` })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Document text' })).toBeAttached();
  await expect(page.getByRole('list', { name: 'Rules' })).toContainText('never');
  await expect(page.getByRole('status').filter({ hasText: /^\d+ passing, 0 failing/ })).toBeVisible();
  // The suite the editor runs is the stored document, not a copy kept in this browser.
  await expect(page.getByText(`policies/${name}.examples.json, version 1.`)).toBeAttached();
  await page.screenshot({ path: 'test-results/screens/templates-draft-opened.png', fullPage: true });
});
