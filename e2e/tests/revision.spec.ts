// Journey: a person uses newer language features and sees the document's revision follow.
import { expect, test } from '@playwright/test';
import { policyWithRule, REFUNDS_POLICY } from './policies.ts';

test('a description makes revision 2 and a when list revision 3', async ({ page }) => {
  await page.goto('/#/playground');
  const editor = page.getByLabel('Policy document');
  const status = page.getByRole('status');

  await editor.fill(REFUNDS_POLICY);
  await expect(status).toHaveText('Valid · revision 1');

  await editor.fill(
    policyWithRule('{ "id": "read-orders", "description": "Reading orders is safe.", "actions": ["orders.read"], "effect": "allow" }'),
  );
  await expect(status).toHaveText('Valid · revision 2');

  await editor.fill(
    policyWithRule('{ "id": "read-orders", "actions": ["orders.read"], "when": [{ "path": "/region", "eq": "eu" }], "effect": "allow" }'),
  );
  await expect(status).toHaveText('Valid · revision 3');
});
