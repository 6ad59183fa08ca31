// Journey: the policy editor explains a member on hover and offers members to complete, from the engine's
// JSON Schema, while the engine alone marks problems.
import { expect, test } from '@playwright/test';
import { memberKey, signIn } from './demo.ts';
import { ownPolicyId, REFUNDS_TEXT, saveVersion } from './own-policy.ts';

test.use({ viewport: { width: 1280, height: 1500 } });

test('hovering a member shows its description, and completion offers the rule members', async ({ page, request }) => {
  const owner = memberKey('owner');
  const id = ownPolicyId('schema');
  await saveVersion(request, owner, id, REFUNDS_TEXT, null, 'a policy for the schema journey');
  await signIn(page, owner, `#/edit/${encodeURIComponent(id)}`);
  await expect(page.getByRole('textbox', { name: 'Document text' })).toBeAttached();

  const member = page.locator('.view-line').filter({ hasText: '"default": "deny"' }).getByText('"default"');
  const hover = page.locator('.monaco-hover').filter({ hasText: 'what decides a call no rule matches' });
  // Monaco asks for a hover once per pointer arrival: one that came before the JSON worker had the schema shows
  // nothing and is not asked again, so the pointer leaves and comes back until the description shows.
  await expect(async () => {
    await page.mouse.move(0, 0);
    await member.hover();
    await expect(hover).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  await page.screenshot({ path: 'test-results/screens/editor-policy-hover.png', fullPage: true });

  // A new member in the never rule: completion lists what a rule may hold.
  await page.locator('.view-line').filter({ hasText: '"id": "never",' }).click();
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('"');
  await page.keyboard.press('Control+Space');
  const suggestions = page.locator('.suggest-widget');
  await expect(suggestions).toContainText('description');
  await expect(suggestions).toContainText('approval_ttl_seconds');
  // Monaco's JSON diagnostics are off: the half-typed member is marked once, by the engine.
  await page.keyboard.press('Escape');
  await expect(page.getByRole('list', { name: 'Problems' }).getByRole('listitem')).toHaveCount(1);
  await expect(page.getByRole('list', { name: 'Problems' })).toContainText('NOT_JSON');
});
