// Journey: an owner fixes a policy error by its marker, widens the auto-refund limit, and saves with a reason.
import { expect, type Page, test } from '@playwright/test';
import { memberKey, signIn } from './demo.ts';

// Tall enough that Monaco renders every line of the refunds policy.
test.use({ viewport: { width: 1280, height: 1500 } });

/** Replaces a word in the editor line matching `line` by double-clicking it and typing. */
async function replaceWord(page: Page, line: RegExp, word: string, replacement: string): Promise<void> {
  await page.locator('.view-line').filter({ hasText: line }).getByText(word).dblclick();
  await page.keyboard.type(replacement);
}

test('a permissive default is listed, fixed, and a widened limit is saved and applied', async ({ page }) => {
  await signIn(page, memberKey('owner'), '#/documents/policies%2Frefunds.policy.json');
  await page.getByRole('link', { name: 'Edit' }).click();
  await expect(page.getByRole('textbox', { name: 'Document text' })).toBeAttached();
  await expect(page.getByRole('status').filter({ hasText: 'revision 1' })).toBeVisible();

  const problems = page.getByRole('list', { name: 'Problems' });
  await replaceWord(page, /"default":\s"deny"/, 'deny', 'allow');
  await expect(problems.getByRole('listitem').filter({ hasText: 'PERMISSIVE_DEFAULT' })).toContainText('line 3');
  await expect(page.locator('.squiggly-error')).toHaveCount(1);

  await replaceWord(page, /"default":\s"allow"/, 'allow', 'deny');
  await expect(page.getByText('No problems found.')).toBeVisible();

  // The demo's v2: refunds up to 250 USD run without approval, and approval starts above 250 (docs/review.md).
  await replaceWord(page, /"gt":\s"100",$/, '100', '250');
  await replaceWord(page, /"lte":\s"100"$/, '100', '250');
  await page.getByLabel('Reason for the edit').fill('raise the automatic refund limit');
  await page.getByRole('button', { name: 'Save' }).click();

  const outcome = page.getByRole('status', { name: 'Save outcome' });
  await expect(outcome).toContainText('applied');
  await expect(outcome.getByRole('list', { name: 'Widened subjects' })).toContainText(
    'refund.issue, amount in (100, 250] USD: require approval -> allow (widens)',
  );
  await page.screenshot({ path: 'test-results/screens/editor-policy-saved.png', fullPage: true });
});
