// Journey: an approver works through two identical held calls by keyboard. The pane of each names its eligible
// approvers, when it was held and its call id; the tabs move with the arrow keys; Tab and Enter on Approve, then
// the "a" shortcut, approve; after each approval the selection and the focus move to the next row, then to the
// empty message; the receipt verifies in the browser and the Decided tab says who decided and when. A request it holds and leaves pending (a failure midway) is denied after it,
// so no later journey finds it in the inbox.
import { type APIRequestContext, expect, test } from '@playwright/test';
import { agentKey, demoKeys, memberKey, signIn } from './demo.ts';
import { inboxRow, openHeld, selectedCall } from './inbox.ts';

const asOwner = { authorization: `Bearer ${memberKey('owner')}` };

/** Denies whatever earlier journeys left pending, so this one starts from an empty inbox. */
async function clearPending(request: APIRequestContext): Promise<void> {
  const list = await request.get('/v1/approvals?status=pending', { headers: asOwner });
  for (const a of ((await list.json()) as { approvals: { id: string }[] }).approvals) {
    await request.post(`/v1/approvals/${a.id}/deny`, { headers: asOwner, data: { reason: 'cleared before the keyboard journey' } });
  }
}

/** The requests this journey held. */
const ours: string[] = [];

test.afterEach(async ({ request }) => {
  for (const id of ours.splice(0)) {
    const read = await request.get(`/v1/approvals/${id}`, { headers: asOwner });
    if (((await read.json()) as { status: string }).status !== 'pending') continue;
    await request.post(`/v1/approvals/${id}/deny`, { headers: asOwner, data: { reason: 'the keyboard journey ended' } });
  }
});

async function hold(request: APIRequestContext): Promise<{ id: string; callId: string; heldAt: string }> {
  const call = await request.post('/v1/agents/support-bot/calls', {
    headers: { authorization: `Bearer ${agentKey()}` },
    data: { tool: 'issue_refund', arguments: { amount: '321' } },
  });
  const held = (await call.json()) as { call_id: string; approval: { id: string } };
  ours.push(held.approval.id);
  const read = await request.get(`/v1/approvals/${held.approval.id}`, { headers: { authorization: `Bearer ${agentKey()}` } });
  return { id: held.approval.id, callId: held.call_id, heldAt: ((await read.json()) as { held_at: string }).held_at };
}

test('an approver approves two identical calls by keyboard; focus follows, the receipt verifies, Decided names who and when', async ({
  page,
  request,
}) => {
  await clearPending(request);
  await signIn(page, memberKey('approver'), '#/approvals');
  await expect(page.getByText('Live')).toBeVisible();
  const first = await hold(request);
  const second = await hold(request);
  expect(second.callId).not.toBe(first.callId);

  const pending = page.getByRole('list', { name: 'Pending requests' });
  await expect(pending.getByRole('listitem')).toHaveCount(2);
  const names = demoKeys().members.filter((m) => ['owner', 'admin', 'approver'].includes(m.role));
  for (const held of [first, second]) {
    const row = inboxRow(page, held.callId);
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('support-bot');
    await expect(row).toContainText('issue_refund');
    const pane = await openHeld(page, held.callId);
    await expect(pane).toContainText(
      `Eligible approvers: ${names
        .map((m) => m.name)
        .join(', ')
        .replace(/, ([^,]+)$/, ', and $1')}`,
    );
    await expect(pane.getByText('Held', { exact: true })).toBeVisible();
    // Relative words, the exact instant in datetime and, in the reader's locale, in the title (docs/console.md, "Times").
    const time = pane.locator(`time[datetime="${held.heldAt}"]`);
    await expect(time).toHaveAttribute('title', new RegExp(String(new Date(held.heldAt).getUTCFullYear())));
    await expect(time).toHaveText(/ago|now/);
  }

  // The tabs: one in the Tab order, arrows and Home/End move between them.
  const pendingTab = page.getByRole('tab', { name: 'Pending' });
  const decidedTab = page.getByRole('tab', { name: 'Decided' });
  await expect(pendingTab).toHaveAttribute('tabindex', '0');
  await expect(decidedTab).toHaveAttribute('tabindex', '-1');
  await pendingTab.focus();
  await page.keyboard.press('ArrowRight');
  await expect(decidedTab).toBeFocused();
  await expect(decidedTab).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tabpanel', { name: 'Decided' })).toBeVisible();
  await page.keyboard.press('Home');
  await expect(pendingTab).toBeFocused();
  await page.keyboard.press('End');
  await expect(decidedTab).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(pendingTab).toBeFocused();
  await expect(pendingTab).toHaveAttribute('aria-selected', 'true');

  // Newest first: select the second call with k, then Tab from its row into the pane, a reason, and Approve.
  const secondRow = inboxRow(page, second.callId).getByRole('button');
  const firstRow = inboxRow(page, first.callId).getByRole('button');
  await firstRow.focus();
  await page.keyboard.press('k');
  await expect(secondRow).toBeFocused();
  await expect(secondRow).toHaveAttribute('aria-current', 'true');
  const pane = selectedCall(page);
  await expect(pane).toContainText(second.callId);
  await page.keyboard.press('r');
  await expect(pane.getByLabel('Reason (optional)')).toBeFocused();
  await page.keyboard.type('checked by phone');
  await page.keyboard.press('Tab');
  await expect(pane.getByRole('button', { name: 'Approve issue_refund 321 USD for support-bot' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(firstRow).toBeFocused();
  await expect(firstRow).toHaveAttribute('aria-current', 'true');

  // The receipt is in a live region and verified in the browser against april's key.
  const april = demoKeys().members.find((m) => m.role === 'approver');
  const key = await request.get(`/v1/members/${april?.id}/public-key`, { headers: asOwner });
  const fingerprint = ((await key.json()) as { fingerprint: string }).fingerprint;
  const receipt = page.getByRole('status', { name: 'Decision receipt' });
  await expect(receipt).toContainText(`Signature verified — signed by ${april?.name} with key ${fingerprint}`);
  await expect(receipt).toContainText(second.callId);
  const raw = receipt.getByLabel('Signature');
  await expect(raw).toBeHidden();
  await receipt.getByText('Raw signature').click();
  await expect(raw).toHaveText(/^[A-Za-z0-9+/=]{40,}$/);

  // The last call, by its shortcut: after it, focus goes to the empty message.
  await expect(pending.getByRole('listitem')).toHaveCount(1);
  await page.keyboard.press('a');
  await expect(page.getByText('Nothing is waiting for a decision.')).toBeFocused();
  await expect(page.getByRole('status', { name: 'Inbox announcements' })).toHaveText('Approved issue_refund 321 USD for support-bot');
  await expect(receipt).toContainText(first.callId);
  await expect(receipt).toContainText('Signature verified');
  await page.screenshot({ path: 'test-results/screens/inbox-keyboard.png', fullPage: true });

  // Decided: who decided, the decision and when.
  await decidedTab.click();
  const decided = await openHeld(page, second.callId, 'Decided requests');
  await expect(inboxRow(page, second.callId, 'Decided requests')).toContainText('approved');
  await expect(decided).toContainText('Approved');
  await expect(decided).toContainText(`Decided by${april?.name}`);
  const read = await request.get(`/v1/approvals/${second.id}`, { headers: asOwner });
  const decidedAt = ((await read.json()) as { decided_at: string }).decided_at;
  await expect(decided.locator(`time[datetime="${decidedAt}"]`)).toHaveAttribute('title', /\d{4}/);
  await expect(decided.getByText('Decided', { exact: true })).toBeVisible();
});
