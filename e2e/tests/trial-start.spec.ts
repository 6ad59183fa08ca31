// Journey: an owner starts a trial of a wider refunds policy from the console, scoped to support-bot's refunds
// with an end time and a number of samples: a past end is refused with its code and nothing typed is lost; the
// report shows the scope and counts only the calls in it; an approver reads the report with no form and no Stop;
// the owner stops the trial after confirming. The browser runs in Berlin, so the end typed is a local time that
// is not UTC. axe finds nothing serious on any of these views (docs/console.md, "Simulation").
import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import { seriousViolations } from './axe.ts';
import { memberKey, signIn } from './demo.ts';
import { owner, prepareVersions } from './refund-candidate.ts';
import { sendSheetCall } from './shadow-sheet.ts';
import { REFUNDS, sendRefundCalls } from './trial-calls.ts';

const ZONE = 'Europe/Berlin';
test.use({ timezoneId: ZONE });

/** An instant as a datetime-local value in Berlin, to the minute. */
function berlinLocal(ms: number): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: ZONE,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).formatToParts(ms);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}`;
}

/** A whole minute about a day ahead whose Berlin time names it alone (not in the hour the clocks pass twice). */
function tomorrowInBerlin(): number {
  const hour = 3_600_000;
  let at = Math.floor((Date.now() + 26 * hour) / 60_000) * 60_000;
  while (berlinLocal(at - hour) === berlinLocal(at) || berlinLocal(at + hour) === berlinLocal(at)) at += 3 * hour;
  return at;
}

/** When the refunds policy's trial started, or null when it has none. */
async function trialStart(request: APIRequestContext): Promise<string | null> {
  const answer = await request.get(`/v1/trials/${encodeURIComponent(REFUNDS)}`, { headers: owner() });
  return answer.status() === 204 ? null : ((await answer.json()) as { started_at: string }).started_at;
}

async function expectNoSeriousViolations(page: Page, state: string): Promise<void> {
  expect(await seriousViolations(page), `axe on ${state}`).toEqual([]);
}

/** A count of the report, by its term (Calls, Sampled, Agreed, Differed). */
function count(page: Page, report: Locator, label: string): Locator {
  return report
    .locator('.sim-count')
    .filter({ has: page.getByRole('term').filter({ hasText: new RegExp(`^${label}$`) }) })
    .getByRole('definition');
}

test('an owner starts a scoped trial from the console and stops it; an approver only reads it', async ({ browser, page, request }) => {
  const { candidate } = await prepareVersions(request);
  const before = await trialStart(request);
  try {
    await signIn(page, memberKey('owner'), '#/simulation');
    await page.getByLabel('Policy document').selectOption(REFUNDS);
    await page.getByText('Start a trial', { exact: true }).click();
    const form = page.getByRole('form', { name: 'Start a trial' });
    await form.getByLabel('Version to trial').selectOption(String(candidate));
    await form.getByLabel('Sample rate (%)').fill('100');
    await form.getByLabel("Only this agent's calls").fill('support-bot');
    await form.getByLabel('Only calls of this tool').fill('issue_refund');
    await form.getByLabel('Max samples').fill('10');

    // An end already past: the form sends it, and the server's refusal shows with its code.
    await form.getByLabel('Ends at').fill(berlinLocal(Date.now() - 24 * 3_600_000));
    await form.getByRole('button', { name: 'Start trial' }).click();
    const refusal = form.getByRole('alert');
    await expect(refusal).toContainText('ends_at is a time after now');
    await expect(refusal).toContainText('(INVALID_SAVE)');
    // Nothing was started: the policy's trial, if another journey left one, is the one it was.
    expect(await trialStart(request)).toBe(before);
    // Nothing typed is lost.
    await expect(form.getByLabel('Version to trial')).toHaveValue(String(candidate));
    await expect(form.getByLabel("Only this agent's calls")).toHaveValue('support-bot');
    await expect(form.getByLabel('Only calls of this tool')).toHaveValue('issue_refund');
    await expect(form.getByLabel('Max samples')).toHaveValue('10');
    await expectNoSeriousViolations(page, 'the start form with a refusal');
    await page.screenshot({ path: 'test-results/screens/trial-start-refused.png', fullPage: true });

    // A field the form cannot send takes the focus with why, and is not sent.
    await form.getByLabel('Sample rate (%)').fill('0');
    await form.getByRole('button', { name: 'Start trial' }).click();
    await expect(form.getByRole('alert')).toHaveText('The sample rate is a whole percent from 1 to 100.');
    await expect(form.getByLabel('Sample rate (%)')).toBeFocused();
    await expect(form.getByLabel('Sample rate (%)')).toHaveAttribute('aria-invalid', 'true');

    // Fixed, and started from the keyboard.
    const endsAt = tomorrowInBerlin();
    await form.getByLabel('Sample rate (%)').fill('100');
    await form.getByLabel('Ends at').fill(berlinLocal(endsAt));
    await form.getByRole('button', { name: 'Start trial' }).focus();
    await page.keyboard.press('Enter');
    await expect(form.getByRole('status')).toContainText(`The trial of version ${candidate} runs`);

    const report = page.getByRole('region', { name: 'Trial report' });
    await expect(report.getByRole('heading')).toHaveText(`Trial of version ${candidate} (running)`);
    const scoped = (term: string) =>
      report
        .locator('dl[aria-label="Trial scope"] > div')
        .filter({ has: page.getByRole('term').filter({ hasText: new RegExp(`^${term}$`) }) })
        .getByRole('definition');
    await expect(scoped('Agent')).toHaveText('support-bot');
    await expect(scoped('Tool')).toHaveText('issue_refund');
    await expect(scoped('Max samples')).toHaveText('10');
    // The local time typed in Berlin is the instant the trial ends at.
    await expect(scoped('Ends at').locator('time')).toHaveAttribute('datetime', new Date(endsAt).toISOString());
    await expect(count(page, report, 'Calls')).toHaveText('0');

    // A call of another tool is out of scope; of the two refunds, v1 holds 200 USD and the candidate allows it.
    await sendSheetCall(request, 'read_order');
    await sendRefundCalls(request, ['50', '200']);
    await expect(count(page, report, 'Calls')).toHaveText('2');
    await expect(count(page, report, 'Sampled')).toHaveText('2');
    await expect(count(page, report, 'Agreed')).toHaveText('1');
    await expect(count(page, report, 'Differed')).toHaveText('1');
    await expectNoSeriousViolations(page, 'a running trial with its scope and Stop');
    await page.screenshot({ path: 'test-results/screens/trial-start-running.png', fullPage: true });

    // An approver reads the same report, with no form to start one and no Stop, and is told why.
    const approverContext = await browser.newContext({ timezoneId: ZONE });
    const approver = await approverContext.newPage();
    try {
      await signIn(approver, memberKey('approver'), '#/simulation');
      await approver.getByLabel('Policy document').selectOption(REFUNDS);
      const seen = approver.getByRole('region', { name: 'Trial report' });
      await expect(seen.getByRole('heading')).toHaveText(`Trial of version ${candidate} (running)`);
      await expect(approver.getByText('Only owners and admins start and stop a trial on live calls')).toBeVisible();
      await expect(approver.getByText('Start a trial', { exact: true })).toHaveCount(0);
      await expect(approver.getByRole('form', { name: 'Start a trial' })).toHaveCount(0);
      await expect(seen.getByRole('button', { name: 'Stop trial' })).toHaveCount(0);
      await expectNoSeriousViolations(approver, "an approver's view of a running trial");
    } finally {
      await approverContext.close();
    }

    // The owner stops it, after confirming; the focus goes to the report's heading.
    await report.getByRole('button', { name: 'Stop trial' }).click();
    await expect(report.getByRole('group', { name: /^Stop the trial of version/ })).toBeVisible();
    await expectNoSeriousViolations(page, 'the Stop confirmation');
    await report.getByRole('button', { name: 'Stop the trial' }).click();
    await expect(report.getByRole('heading')).toHaveText(`Trial of version ${candidate} (stopped)`);
    await expect(report.getByRole('heading')).toBeFocused();
    await expect(report.getByRole('button', { name: 'Stop trial' })).toHaveCount(0);
    // Stopped, it counts no more calls.
    await sendRefundCalls(request, ['60']);
    const after = await request.get(`/v1/trials/${encodeURIComponent(REFUNDS)}`, { headers: owner() });
    expect(await after.json()).toMatchObject({ calls: 2, running: false, ended: 'stopped' });
    await expect(count(page, report, 'Calls')).toHaveText('2');
  } finally {
    await request.post(`/v1/trials/${encodeURIComponent(REFUNDS)}/stop`, { headers: owner() });
  }
});
