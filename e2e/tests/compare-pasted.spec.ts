// Journey: a member compares the running refunds policy with a pasted text on its history page, reads the decision
// changes, then pastes a text that is not JSON and reads where it breaks; nothing is saved.
import { expect, test } from '@playwright/test';
import { memberKey, signIn } from './demo.ts';
import { REFUNDS_ID } from './history.ts';

test('a viewer compares the running policy with pasted text', async ({ page, request }) => {
  const key = memberKey('viewer');
  const response = await request.get(`/v1/documents/${encodeURIComponent(REFUNDS_ID)}`, { headers: { authorization: `Bearer ${key}` } });
  const running = (await response.json()) as { text: string; version: { sequence: number } };
  const policy = JSON.parse(running.text) as { rules: unknown[] };
  const pasted = JSON.stringify(
    { ...policy, rules: [{ id: 'no-search', actions: ['orders.search'], effect: 'deny' }, ...policy.rules] },
    null,
    2,
  );

  await signIn(page, key, `#/history/${encodeURIComponent(REFUNDS_ID)}`);
  const panel = page.getByRole('region', { name: 'Compare with pasted text' });
  const field = panel.getByLabel('Pasted policy (JSON)');
  await field.fill(pasted);
  await panel.getByRole('button', { name: 'Compare with the running version' }).click();
  const changes = panel.getByRole('list', { name: 'Decision changes from the running version' });
  await expect(changes.getByRole('listitem').filter({ hasText: 'orders.search' })).toContainText('→ deny (narrows)');

  await field.fill('{\n  "schema": "tollgate/policy@1",\n  "rules": [');
  await panel.getByRole('button', { name: 'Compare with the running version' }).click();
  await expect(panel.getByRole('alert')).toContainText('The pasted text is not a valid policy');
  await expect(panel.getByRole('list', { name: 'Problems of the pasted text' })).toContainText(/^line 3/);

  // Nothing was saved: the running version is the one read before.
  const after = await request.get(`/v1/documents/${encodeURIComponent(REFUNDS_ID)}`, { headers: { authorization: `Bearer ${key}` } });
  expect(((await after.json()) as { version: { sequence: number } }).version.sequence).toBe(running.version.sequence);
});
