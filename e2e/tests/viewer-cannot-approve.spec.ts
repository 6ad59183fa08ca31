// Journey: a viewer reads the inbox but is not offered Approve or Deny (and is told why, naming who can), nor
// shown the held call's arguments.
import { expect, test } from '@playwright/test';
import { agentKey, demoKeys, memberKey, signIn } from './demo.ts';
import { openHeld } from './inbox.ts';

test('a viewer sees a pending request without Approve, Deny or its arguments, and why', async ({ page, request }) => {
  const call = await request.post('/v1/agents/support-bot/calls', {
    headers: { authorization: `Bearer ${agentKey()}` },
    data: { tool: 'issue_refund', arguments: { amount: '400' } },
  });
  expect(call.ok()).toBe(true);
  const callId = ((await call.json()) as { call_id: string }).call_id;

  await signIn(page, memberKey('viewer'), '#/approvals');
  await expect(page.getByRole('banner')).toContainText('viewer');
  const card = await openHeld(page, callId);
  await expect(card).toContainText('400 USD');
  await expect(card.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Deny' })).toHaveCount(0);
  // It says why, naming who can: the refund rule's approvers are the owner, the admin and the approver.
  const [owner, admin, approver] = ['owner', 'admin', 'approver'].map((role) => demoKeys().members.find((m) => m.role === role)?.name);
  await expect(card).toContainText(`Only ${owner}, ${admin}, and ${approver} can approve this call: your role is viewer.`);
  await expect(card).toContainText(`Eligible approvers: ${owner}, ${admin}, and ${approver}`);
  // Arguments go to the request's approvers, owners and admins only (docs/api.md).
  await expect(card.getByLabel('Arguments as signed')).toContainText("arguments shown only to this request's approvers");
  await expect(card.getByLabel('Arguments as signed')).not.toContainText('"amount"');
  await page.screenshot({ path: 'test-results/screens/approvals-viewer.png', fullPage: true });
});
