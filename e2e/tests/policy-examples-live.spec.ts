// Journey: a policy's example calls run as the author types; lowering the automatic refund limit flips an
// example to failing, and its row shows what the policy now decides.
import { expect, type Page, test } from '@playwright/test';
import { memberKey, signIn } from './demo.ts';
import { ownPolicyId, REFUNDS_EXAMPLES, REFUNDS_TEXT, saveVersion } from './own-policy.ts';

test.use({ viewport: { width: 1280, height: 1600 } });

async function replaceWord(page: Page, line: RegExp, word: string, replacement: string): Promise<void> {
  await page.locator('.view-line').filter({ hasText: line }).first().getByText(word).dblclick();
  await page.keyboard.type(replacement);
}

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

  await expect(page.getByText('No example calls yet.')).toBeVisible();
  await page.getByLabel('Example suite', { exact: true }).fill(REFUNDS_EXAMPLES);
  const counts = page.getByRole('status').filter({ hasText: /passing, \d+ failing/ });
  await expect(counts).toHaveText('12 passing, 0 failing');

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
