// Journey: the Webhooks section of Members & keys (docs/console.md, "Webhooks"). The demo admin subscribes an https
// URL on a public documentation address (192.0.2.1, TEST-NET-1: nothing answers there, so every attempt fails and
// is recorded), sees the signing secret once, sees a held call's delivery attempt, redelivers it, and removes the
// subscription; a loopback URL is refused with its code; axe finds no serious or critical issue on the section.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { holdCall } from './console-states.ts';
import { memberKey, signIn } from './demo.ts';

test.use({ viewport: { width: 1280, height: 800 } });

/** The serious and critical violations inside the Webhooks section, one line each (as accessibility.spec.ts reads them). */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .include('section[aria-labelledby="webhooks-heading"]')
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
    .analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(' | ')}`);
}

function section(page: Page) {
  return page.getByRole('region', { name: 'Webhooks', exact: true });
}

function subscriptionRow(page: Page, url: string) {
  return page.getByRole('table', { name: 'Webhook subscriptions, oldest first' }).getByRole('row').filter({ hasText: url });
}

async function subscribe(page: Page, url: string, agents = ''): Promise<void> {
  const form = page.getByRole('form', { name: 'New subscription' });
  await form.getByLabel('URL (https)').fill(url);
  await form.getByLabel('Agents').fill(agents);
  await form.getByRole('button', { name: 'Subscribe' }).click();
}

test('the admin subscribes a URL, sees its secret once, its delivery attempts, redelivers and removes it', async ({ page, request }) => {
  test.setTimeout(120_000);
  const url = `https://192.0.2.1/e2e-${Date.now().toString(36)}`;
  await signIn(page, memberKey('admin'), '#/members');
  await expect(section(page).getByRole('heading', { name: 'Webhooks', exact: true })).toBeVisible();

  // A loopback URL is the server's to refuse, and the form says so with the code.
  await subscribe(page, 'https://127.0.0.1/hook');
  await expect(page.getByRole('form', { name: 'New subscription' }).getByRole('alert')).toContainText('WEBHOOK_URL_REFUSED');

  // Told only of support-bot's calls (the call held below is one).
  await subscribe(page, url, 'support-bot');
  const panel = page.getByRole('region', { name: /signing secret for/i });
  await expect(panel).toContainText('This is the only time you will see this secret.');
  await expect(panel.getByRole('heading')).toBeFocused();
  const secret = await panel.getByLabel('The signing secret').inputValue();
  expect(secret).toMatch(/^whsec_/);
  const row = subscriptionRow(page, url);
  await expect(row).toContainText('approval.pending');
  await expect(row).toContainText('Standard');
  await expect(row).toContainText('agents: support-bot');
  expect(await seriousViolations(page)).toEqual([]);
  await panel.getByRole('button', { name: 'Close' }).click();
  await expect(panel).toHaveCount(0);
  expect(await page.content()).not.toContain(secret);

  // A call held through the API becomes a delivery attempt (failed: nothing answers at the address).
  await row.getByRole('button', { name: 'Deliveries' }).click();
  const deliveries = page.getByRole('region', { name: `Deliveries to ${url}` });
  await expect(deliveries).toContainText('No delivery attempts yet.');
  await holdCall(request);
  const attempts = deliveries.getByRole('table', { name: 'Delivery attempts, newest first' });
  // An attempt is cut after 10 s where the address swallows the connection rather than refusing it.
  await expect(attempts.getByRole('row').filter({ hasText: 'approval.pending' }).first()).toContainText('Failed', { timeout: 20_000 });
  const before = await attempts.getByRole('row').count();
  const when = attempts.locator('time').first();
  await expect(when).toHaveAttribute('title', /\d/);
  expect(await seriousViolations(page)).toEqual([]);

  // Redeliver is accepted (202) and the list is read again, a new attempt on it.
  await attempts.getByRole('button', { name: 'Redeliver' }).first().click();
  await expect(page.getByRole('status').filter({ hasText: /is sent again\./ })).toBeVisible();
  await expect.poll(() => attempts.getByRole('row').count(), { timeout: 20_000 }).toBeGreaterThan(before);

  // Rotate secret shows a new one, once.
  await row.getByRole('button', { name: 'Rotate secret' }).click();
  await row.getByRole('button', { name: 'Rotate the secret' }).click();
  const rotated = page.getByRole('region', { name: /new signing secret for/i });
  const next = await rotated.getByLabel('The signing secret').inputValue();
  expect(next).toMatch(/^whsec_/);
  expect(next).not.toBe(secret);
  await rotated.getByRole('button', { name: 'Close' }).click();

  // Remove asks first, then the subscription is gone.
  await row.getByRole('button', { name: 'Remove' }).click();
  await row.getByRole('button', { name: 'Remove the subscription' }).click();
  await expect(page.getByRole('status').filter({ hasText: `${url} is no longer subscribed.` })).toBeVisible();
  await expect(subscriptionRow(page, url)).toHaveCount(0);
});
