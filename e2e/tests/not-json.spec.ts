// Journey: a person types text that is not JSON and is told where it stops being JSON.
import { expect, test } from '@playwright/test';
import { MONACO_MS } from './console-states.ts';
import { replaceEditorText } from './monaco-edit.ts';

test('text that is not JSON shows NOT_JSON with its line and column', async ({ page }) => {
  await page.goto('/#/playground');

  const editor = page.locator('.code-editor-host .monaco-editor');
  await expect(editor).toBeVisible({ timeout: MONACO_MS });
  await replaceEditorText(page, editor, '{\n  "schema": "tollgate/policy@1",\n  "default" "deny"\n}');

  await expect(page.getByRole('status')).toHaveText('1 problem');
  const problem = page.getByRole('list', { name: 'Problems' }).getByRole('listitem');
  await expect(problem).toHaveCount(1);
  await expect(problem).toContainText('NOT_JSON');
  await expect(problem).toContainText('3:13');
  await expect(problem).toContainText('line 3, column 13');
});
