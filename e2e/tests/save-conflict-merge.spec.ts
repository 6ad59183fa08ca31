// Journey: an owner edits a policy while someone else saves another version; the save meets a conflict,
// the three-way view merges both changes, and the merge is resubmitted on the running version and applied.
import { expect, test } from '@playwright/test';
import { memberKey, signIn } from './demo.ts';
import { replaceWord } from './monaco-edit.ts';
import { ownPolicyId, REFUNDS_TEXT, runningText, saveVersion } from './own-policy.ts';

test.use({ viewport: { width: 1280, height: 2000 } });

test('a conflicting save opens the three-way view, and the merge is applied', async ({ page, request }) => {
  const owner = memberKey('owner');
  const id = ownPolicyId('merge');
  await saveVersion(request, owner, id, REFUNDS_TEXT, null, 'a policy for the merge journey');

  // Each save names the running version it was based on, as based_on (docs/console.md).
  const preconditions: unknown[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/edits')) preconditions.push(r.postDataJSON()?.based_on);
  });
  await signIn(page, owner, `#/edit/${encodeURIComponent(id)}`);
  await expect(page.getByRole('textbox', { name: 'Document text' })).toBeAttached();
  await expect(page.getByText('editing from version 1')).toBeVisible();

  // Meanwhile someone else shortens the approval lifetime, and that version runs.
  const theirs = REFUNDS_TEXT.replace('"approval_ttl_seconds": 14400', '"approval_ttl_seconds": 7200');
  expect(await saveVersion(request, owner, id, theirs, 1, 'shorter approvals')).toBe(2);

  await replaceWord(page, /"lte":\s"100"$/, '100', '250');
  await page.getByLabel('Reason for the edit').fill('raise the automatic refund limit');
  await page.getByRole('button', { name: 'Save', exact: true }).click();

  const outcome = page.getByRole('status', { name: 'Save outcome' });
  await expect(outcome).toContainText('conflict');
  const merge = page.getByRole('region', { name: 'Three-way merge' });
  await expect(merge).toContainText('Version 2 runs now; you edited from your base, version 1.');
  await expect(merge).toContainText('touch different lines');
  await expect(merge.getByRole('textbox', { name: 'Merged text' })).toBeAttached();
  await expect(merge.locator('.view-line').filter({ hasText: '"approval_ttl_seconds": 7200' }).first()).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/editor-conflict-three-way.png', fullPage: true });

  await merge.getByRole('button', { name: 'Resubmit based on version 2' }).click();
  await expect(outcome).toContainText('applied');
  await expect(outcome).toContainText('version 3');
  await expect(merge).toHaveCount(0);
  await expect(page.getByText('editing from version 3')).toBeVisible();

  expect(preconditions).toEqual([1, 2]);
  const running = await runningText(request, owner, id);
  expect(running.sequence).toBe(3);
  expect(running.text).toContain('"approval_ttl_seconds": 7200');
  expect(running.text).toContain('"lte": "250"');
  await page.screenshot({ path: 'test-results/screens/editor-conflict-merged.png', fullPage: true });
});
