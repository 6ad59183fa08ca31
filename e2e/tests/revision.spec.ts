// Journey: a person uses newer language features and sees the document's revision follow.
import { expect, test } from '@playwright/test';
import { MONACO_MS } from './console-states.ts';
import { replaceEditorText } from './monaco-edit.ts';
import { policyWithRule, REFUNDS_POLICY } from './policies.ts';

test('a description makes revision 2 and a when list revision 3', async ({ page }) => {
  await page.goto('/#/playground');
  const editor = page.locator('.code-editor-host .monaco-editor');
  await expect(editor).toBeVisible({ timeout: MONACO_MS });
  const status = page.getByRole('status');

  await replaceEditorText(page, editor, REFUNDS_POLICY);
  await expect(status).toHaveText('Valid · revision 1');

  await replaceEditorText(
    page,
    editor,
    policyWithRule('{ "id": "read-orders", "description": "Reading orders is safe.", "actions": ["orders.read"], "effect": "allow" }'),
  );
  await expect(status).toHaveText('Valid · revision 2');

  await replaceEditorText(
    page,
    editor,
    policyWithRule('{ "id": "read-orders", "actions": ["orders.read"], "when": [{ "path": "/region", "eq": "eu" }], "effect": "allow" }'),
  );
  await expect(status).toHaveText('Valid · revision 3');
});
