// Journey: an author writes a policy's example suite in its editor and stores it beside the policy
// (policies/<name>.examples.json); it is there after a reload, and runs as the author types: lowering the
// automatic refund limit flips an example to failing, and its row shows what the policy now decides.
import { expect, test } from '@playwright/test';
import { memberKey, signIn } from './demo.ts';
import { replaceWord } from './monaco-edit.ts';
import { ownPolicyId, REFUNDS_EXAMPLES, REFUNDS_TEXT, saveVersion } from './own-policy.ts';

test.use({ viewport: { width: 1280, height: 1600 } });

test('an example flips to failing as a threshold changes, showing the actual decision', async ({ page, request }) => {
  const owner = memberKey('owner');
  const id = ownPolicyId('examples');
  await saveVersion(request, owner, id, REFUNDS_TEXT, null, 'a policy for the examples journey');
  await signIn(page, owner, `#/edit/${encodeURIComponent(id)}`);
  await expect(page.getByRole('textbox', { name: 'Document text' })).toBeAttached();

  // The rules panel: each rule with its effect; a click puts the cursor on the rule.
  const rules = page.getByRole('list', { name: 'Rules' });
  await expect(rules.getByRole('button', { name: /refund-approval\s*require approval/ })).toBeVisible();
  await expect(rules.getByRole('button', { name: /never\s*deny/ })).toBeVisible();
  await rules.getByRole('button', { name: /never\s*deny/ }).click();
  await expect(page.locator('.line-numbers.active-line-number')).toHaveText('42');

  // A new policy has no suite: the panel offers to create one, stored through the edit seam.
  const suiteId = id.replace(/\.policy\.json$/, '.examples.json');
  await expect(page.getByText('This policy has no example suite yet')).toBeVisible();
  await page.getByRole('button', { name: 'Create an example suite' }).click();
  await page.getByLabel('Example suite', { exact: true }).fill(REFUNDS_EXAMPLES);
  const counts = page.getByRole('status').filter({ hasText: /passing, \d+ failing/ });
  await expect(counts).toHaveText('12 passing, 0 failing');
  await page.getByLabel('Reason for the examples edit').fill('the refunds examples');
  await page.getByRole('button', { name: 'Store the example suite' }).click();
  await expect(page.getByRole('status', { name: 'Example suite outcome' })).toContainText('stored · version 1');

  // Stored, not kept in this browser: with local storage emptied but for the sign-in, a reload reads it back.
  await page.evaluate(() => {
    for (const key of Object.keys(localStorage)) if (key !== 'tollgate.member-key') localStorage.removeItem(key);
  });
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Document text' })).toBeAttached();
  await expect(counts).toHaveText('12 passing, 0 failing');
  await expect(page.getByText(`${suiteId}, version 1.`)).toBeAttached();

  await replaceWord(page, /"lte":\s"100"$/, '100', '50');
  await expect(counts).toHaveText('10 passing, 2 failing');
  const row = page.getByRole('row', { name: /a refund of exactly the automatic limit, 100 USD/ });
  await expect(row.getByRole('cell').nth(0)).toHaveText('fail');
  await expect(row.getByRole('cell').nth(1)).toHaveText('allow by refund-auto');
  await expect(row.getByRole('cell').nth(2)).toHaveText('deny (DEFAULT)');
  await page.screenshot({ path: 'test-results/screens/editor-examples-failing.png', fullPage: true });

  await replaceWord(page, /"lte":\s"50"$/, '50', '100');
  await expect(counts).toHaveText('12 passing, 0 failing');
});
