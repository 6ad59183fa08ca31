// Journey: an owner leaves an unsaved edit; someone else's version runs by the time they come back. The
// draft is offered with a diff against what runs now, and saving the restored text meets the conflict
// (and its merge) instead of overwriting the other version.
import { expect, test } from '@playwright/test';
import { memberKey, signIn } from './demo.ts';
import { replaceWord } from './monaco-edit.ts';
import { ownPolicyId, REFUNDS_TEXT, saveVersion } from './own-policy.ts';

test.use({ viewport: { width: 1280, height: 2000 } });

test('a draft whose base moved on is shown against what runs now, and its save meets the conflict', async ({ page, request }) => {
  const owner = memberKey('owner');
  const id = ownPolicyId('draft');
  await saveVersion(request, owner, id, REFUNDS_TEXT, null, 'a policy for the draft journey');
  const questions: string[] = [];
  page.on('dialog', (dialog) => {
    questions.push(dialog.message());
    void dialog.accept();
  });

  await signIn(page, owner, `#/edit/${encodeURIComponent(id)}`);
  await expect(page.getByRole('textbox', { name: 'Document text' })).toBeAttached({ timeout: 20_000 });
  await replaceWord(page, /"lte":\s"100"$/, '100', '250');
  await expect(page.locator('.view-line').filter({ hasText: '"lte": "250"' })).toBeVisible();
  // Leaving asks, and the text stays as a draft.
  await page.getByRole('link', { name: 'Documents' }).click();
  await expect.poll(() => questions.length).toBe(1);
  expect(questions[0]).toContain('unsaved text');

  const theirs = REFUNDS_TEXT.replace('"approval_ttl_seconds": 14400', '"approval_ttl_seconds": 7200');
  expect(await saveVersion(request, owner, id, theirs, 1, 'shorter approvals')).toBe(2);

  // Opened again later, in a fresh load: the console reads what runs now.
  await page.goto(`/#/edit/${encodeURIComponent(id)}`);
  await page.reload();
  const offer = page.getByRole('region', { name: 'Unsaved draft' });
  await expect(offer).toContainText('version 2 runs now, not version 1');
  await expect(offer.locator('.monaco-diff-editor')).toBeVisible({ timeout: 20_000 });
  await expect(offer.getByRole('textbox', { name: 'Your draft' })).toBeAttached();
  await offer.getByRole('button', { name: 'Restore the draft' }).click();
  await expect(offer).toBeHidden();
  await expect(page.getByText('editing from version 1')).toBeVisible();

  await page.getByLabel('Reason for the edit').fill('raise the automatic refund limit');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('status', { name: 'Save outcome' })).toContainText('conflict');
  await expect(page.getByRole('region', { name: 'Three-way merge' })).toContainText('Version 2 runs now');
});
