// Journey: a person writes a broken policy, reads what is wrong and where, and mends it.
import { expect, test } from '@playwright/test';
import { MONACO_MS } from './console-states.ts';
import { replaceEditorText } from './monaco-edit.ts';
import { policyWithRule } from './policies.ts';

test('a broken policy lists its problems by code and path until it is fixed', async ({ page }) => {
  await page.goto('/#/playground');
  const editor = page.locator('.code-editor-host .monaco-editor');
  await expect(editor).toBeVisible({ timeout: MONACO_MS });

  await replaceEditorText(page, editor, policyWithRule('{ "id": "read-orders", "actions": ["orders.read"], "efect": "allow" }', 'allow'));

  const problems = page.getByRole('list', { name: 'Problems' }).getByRole('listitem');
  const permissive = problems.filter({ hasText: 'PERMISSIVE_DEFAULT' });
  await expect(permissive).toHaveCount(1);
  await expect(permissive).toContainText('/default');
  await expect(permissive).toContainText('3:14');
  const unknown = problems.filter({ hasText: 'UNKNOWN_MEMBER' });
  await expect(unknown).toHaveCount(1);
  await expect(unknown).toContainText('/rules/0/efect');
  const count = await problems.count();
  await expect(page.getByRole('status')).toHaveText(`${count} problems`);

  await replaceEditorText(page, editor, policyWithRule('{ "id": "read-orders", "actions": ["orders.read"], "effect": "allow" }'));

  await expect(page.getByRole('status')).toHaveText('Valid · revision 1');
  await expect(page.getByRole('list', { name: 'Problems' })).toHaveCount(0);
});
