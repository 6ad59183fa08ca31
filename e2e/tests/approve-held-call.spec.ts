// Journey: an agent's refund is held; the approver sees it arrive live, approves it, and the agent's claim succeeds.
import { expect, test } from '@playwright/test';
import { agentKey, memberKey, signIn } from './demo.ts';
import { inboxRow, openHeld } from './inbox.ts';

test('a held call appears live, is approved with a signature, and the claim then succeeds', async ({ page, request }) => {
  await signIn(page, memberKey('approver'), '#/approvals');
  await expect(page.getByText('Live')).toBeVisible();

  const args = { amount: '500' };
  const call = await request.post('/v1/agents/support-bot/calls', {
    headers: { authorization: `Bearer ${agentKey()}` },
    data: { tool: 'issue_refund', arguments: args },
  });
  expect(call.ok()).toBe(true);
  const held = (await call.json()) as { call_id: string; decision: string; approval?: { id: string } };
  expect(held.decision).toBe('require_approval');
  const id = held.approval?.id ?? '';

  // No reload: the event stream brings the request in, one line in the list.
  await expect(page.getByRole('list', { name: 'Pending requests' }).getByRole('listitem')).toHaveCount(1);
  const row = inboxRow(page, held.call_id);
  await expect(row).toContainText('support-bot');
  await expect(row).toContainText('issue_refund');
  await expect(row).toContainText('500 USD');
  await expect(row).toContainText('refund-approval');
  await expect(row).toContainText(/expires in/);
  const pane = await openHeld(page, held.call_id);
  await expect(pane.getByLabel('Arguments as signed')).toContainText('"amount": "500"');
  await page.screenshot({ path: 'test-results/screens/approvals.png', fullPage: true });

  await pane.getByLabel('Reason (optional)').fill('customer called');
  await pane.getByRole('button', { name: 'Approve issue_refund 500 USD for support-bot' }).click();
  await expect(page.getByRole('region', { name: 'Signed decision' }).getByLabel('Signature')).toHaveText(/^[A-Za-z0-9+/=]{40,}$/);
  await expect(page.getByText('Nothing is waiting for a decision.')).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/approved.png', fullPage: true });

  await page.getByRole('tab', { name: 'Decided' }).click();
  // Other journeys may have decided calls before: this one is found by its call id.
  await expect(inboxRow(page, held.call_id, 'Decided requests')).toContainText('approved');

  const claim = await request.post(`/v1/approvals/${encodeURIComponent(id)}/claim`, {
    headers: { authorization: `Bearer ${agentKey()}` },
    data: { arguments: args },
  });
  expect(claim.status()).toBe(200);
});
