// Journey: the receipt is checked in the browser, not taken on trust. When the key the console is handed is
// not the decider's (here the owner's key answered for april's), it says plainly that the signature is not verified.
import { expect, test } from '@playwright/test';
import { agentKey, demoKeys, memberKey, signIn } from './demo.ts';
import { openHeld } from './inbox.ts';

test("a receipt checked against a key that is not the decider's is shown as not verified", async ({ page, request }) => {
  const owner = demoKeys().members.find((m) => m.role === 'owner');
  const ownerKey = await request.get(`/v1/members/${owner?.id}/public-key`, { headers: { authorization: `Bearer ${memberKey('owner')}` } });
  const substitute = await ownerKey.text();
  // Every public key the console asks for is answered with the owner's.
  await page.route('**/v1/members/*/public-key', (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: substitute }),
  );

  await signIn(page, memberKey('approver'), '#/approvals');
  await expect(page.getByText('Live')).toBeVisible();
  const call = await request.post('/v1/agents/support-bot/calls', {
    headers: { authorization: `Bearer ${agentKey()}` },
    data: { tool: 'issue_refund', arguments: { amount: '777' } },
  });
  const callId = ((await call.json()) as { call_id: string }).call_id;
  const card = await openHeld(page, callId);
  await expect(card).toContainText('777 USD');
  await page.screenshot({ path: 'test-results/screens/inbox-card.png', fullPage: true });
  await card.getByRole('button', { name: 'Approve' }).click();

  const receipt = page.getByRole('status', { name: 'Decision receipt' });
  await expect(receipt).toContainText(callId);
  await expect(receipt).toContainText("Signature NOT verified: the signature does not match the signed content and the decider's key");
  await expect(receipt).not.toContainText('Signature verified');

  // On a narrow window the receipt's fingerprint-long words and the pane's call id wrap instead of widening the page.
  const other = await request.post('/v1/agents/support-bot/calls', {
    headers: { authorization: `Bearer ${agentKey()}` },
    data: { tool: 'issue_refund', arguments: { amount: '778' } },
  });
  const otherCall = (await other.json()) as { call_id: string; approval: { id: string } };
  await page.setViewportSize({ width: 400, height: 800 });
  await expect(await openHeld(page, otherCall.call_id)).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(400);
  await page.screenshot({ path: 'test-results/screens/inbox-narrow.png', fullPage: true });
  await request.post(`/v1/approvals/${otherCall.approval.id}/deny`, {
    headers: { authorization: `Bearer ${memberKey('owner')}` },
    data: { reason: 'only held to show a card on a narrow window' },
  });
});
