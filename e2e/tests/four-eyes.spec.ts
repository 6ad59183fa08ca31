// Journey: four eyes on widening edits (docs/security.md, "Four eyes"). With review_widening_edits on, an admin's
// edit widening the refunds policy is held; on the history page its author sees it waiting for review with its
// impact and an Activate they may not use, and the owner activates it. axe finds nothing serious on either view.
// The server is shared with the other journeys: the setting and the running policy are put back after.
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { seriousViolations } from './axe.ts';
import { memberKey, signIn } from './demo.ts';
import { REFUNDS_ID } from './history.ts';

test.use({ viewport: { width: 1280, height: 1000 } });

const SETTINGS = 'settings.yaml';
const path = (id: string) => `/v1/documents/${encodeURIComponent(id)}`;
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

interface Running {
  text: string;
  sequence: number;
}

async function running(request: APIRequestContext, id: string): Promise<Running> {
  const answer = await request.get(path(id), { headers: bearer(memberKey('owner')) });
  expect(answer.status()).toBe(200);
  const body = (await answer.json()) as { text: string; version: { sequence: number } };
  return { text: body.text, sequence: body.version.sequence };
}

/** An edit based on the running version: the outcome's status, held_for_review and stored sequence. */
async function edit(request: APIRequestContext, key: string, id: string, content: string, reason: string) {
  const answer = await request.post(`${path(id)}/edits`, {
    headers: bearer(key),
    data: { content, reason, based_on: (await running(request, id)).sequence },
  });
  expect(answer.status(), await answer.text()).toBe(201);
  const body = (await answer.json()) as { status: string; held_for_review?: boolean; version: { sequence: number } };
  return { status: body.status, held: body.held_for_review === true, sequence: body.version.sequence };
}

async function activate(request: APIRequestContext, key: string, id: string, sequence: number): Promise<void> {
  const answer = await request.post(`${path(id)}/activate`, { headers: bearer(key), data: { sequence } });
  expect(answer.status(), await answer.text()).toBe(200);
}

/** The settings text with review_widening_edits set to `on`, the rest as it runs. */
function withReview(text: string, on: boolean): string {
  return `${text.replace(/^review_widening_edits:.*\n?/m, '').trimEnd()}\nreview_widening_edits: ${on}\n`;
}

/** The refunds policy with refunds up to 600 allowed without approval: wider than any limit the journeys set. */
function widenedTo600(text: string): string {
  const policy = JSON.parse(text) as { rules: { id: string; amount?: { gt?: string; lte?: string } }[] };
  for (const rule of policy.rules) {
    if (rule.id === 'refund-auto' && rule.amount) rule.amount.lte = '600';
    if (rule.id === 'refund-approval' && rule.amount) rule.amount.gt = '600';
  }
  return `${JSON.stringify(policy, null, 2)}\n`;
}

async function expectNoSeriousViolations(page: Page, state: string): Promise<void> {
  expect(await seriousViolations(page), `axe on ${state}`).toEqual([]);
}

test('an admin’s widening edit waits for review and the owner activates it', async ({ page, request }) => {
  test.slow();
  const owner = memberKey('owner');
  const admin = memberKey('admin');
  const before = await running(request, REFUNDS_ID);
  // A second owner, who alone may put the setting back after: turning four eyes off widens, so it is held too.
  const name = `second-owner-${Date.now().toString(36)}`;
  const added = await request.post('/v1/members', { headers: bearer(owner), data: { name, role: 'owner' } });
  expect(added.status()).toBe(201);
  const secondId = ((await added.json()) as { id: string }).id;
  const made = await request.post('/v1/keys', { headers: bearer(owner), data: { name, member: name } });
  expect(made.status()).toBe(201);
  const secondOwner = ((await made.json()) as { key: string }).key;

  const settings = await running(request, SETTINGS);
  expect((await edit(request, owner, SETTINGS, withReview(settings.text, true), 'four eyes on widening edits')).status).toBe('applied');
  try {
    const held = await edit(request, admin, REFUNDS_ID, widenedTo600(before.text), 'refunds up to 600 without approval');
    expect([held.status, held.held]).toEqual(['saved_not_running', true]);
    expect((await running(request, REFUNDS_ID)).sequence).toBe(before.sequence);

    // The author sees it waiting, with what it widens, and an Activate they may not use, saying why.
    await signIn(page, admin, `#/history/${encodeURIComponent(REFUNDS_ID)}`);
    const queue = page.getByRole('region', { name: 'Waiting for review' });
    const item = queue.getByRole('list', { name: 'Versions waiting for review' }).getByRole('listitem').first();
    await expect(item).toContainText(`Version ${held.sequence}`);
    await expect(item).toContainText('refunds up to 600 without approval');
    await expect(item.getByRole('list', { name: 'Widened subjects' })).toContainText('600] USD: require approval → allow (widens)');
    await expect(item.getByRole('region', { name: `Preview of version ${held.sequence}` })).toContainText(
      `Version ${held.sequence} widens (against version ${before.sequence})`,
    );
    const own = item.getByRole('button', { name: `Activate version ${held.sequence}` });
    await expect(own).toBeDisabled();
    await expect(own).toHaveAccessibleDescription('You wrote this version: under four eyes another owner or admin activates it.');
    await expectNoSeriousViolations(page, "the author's view");

    // The owner, a second person, activates it from the same panel.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, owner, `#/history/${encodeURIComponent(REFUNDS_ID)}`);
    const activateIt = queue.getByRole('button', { name: `Activate version ${held.sequence}` });
    await expect(activateIt).toBeEnabled();
    await expectNoSeriousViolations(page, "the owner's view");
    await activateIt.click();
    await expect(page.getByRole('group', { name: `Run version ${held.sequence} of ${REFUNDS_ID}?` })).toBeVisible();
    await page.getByRole('button', { name: `Confirm activating version ${held.sequence}` }).click();
    await expect(queue).toHaveCount(0);
    const versions = page.getByRole('list', { name: 'Versions' });
    await expect(
      versions
        .getByRole('listitem')
        .filter({ hasText: `Version ${held.sequence}` })
        .getByText('running'),
    ).toBeVisible();
    await expectNoSeriousViolations(page, 'after the activation');

    // The history names both people: the author and the member who made it run.
    const history = (await (await request.get(`${path(REFUNDS_ID)}/history`, { headers: bearer(owner) })).json()) as {
      versions: { sequence: number; author: { label: string }; activated_by: { name: string } | null }[];
    };
    const version = history.versions.find((v) => v.sequence === held.sequence);
    expect([version?.author.label, version?.activated_by?.name]).toEqual(['adam', 'olivia']);
  } finally {
    // Back as it was for the other journeys: four eyes off (held, run by the second owner), the policy's text.
    const off = await edit(request, owner, SETTINGS, withReview((await running(request, SETTINGS)).text, false), 'four eyes off');
    if (off.status !== 'applied') await activate(request, secondOwner, SETTINGS, off.sequence);
    // As a new version, so the newest version runs again, as the journeys that diff the last two expect.
    if ((await running(request, REFUNDS_ID)).text !== before.text)
      await edit(request, owner, REFUNDS_ID, before.text, 'refund limits back');
    await request.delete(`/v1/members/${encodeURIComponent(secondId)}`, { headers: bearer(owner) });
  }
});
