// Journey: a reviewer opens the history of a policy whose running version has a newer candidate waiting, and reads
// the change as a review (docs/console.md, "Reviewing a change"): the running version against the candidate by
// default, one summary that says each change once, the text diff without its reformatting, the rules one by one,
// the decision map of the changed tools at 1280 and 390 px, and the diff editors' names kept across a resize.
/// <reference lib="dom" />
import { expect, type Page, test } from '@playwright/test';
import { seriousViolations } from './axe.ts';
import { MONACO_MS } from './console-states.ts';
import { memberKey, signIn } from './demo.ts';
import { brokenWords } from './layout-checks.ts';
import { ownPolicyId, REFUNDS_TEXT, saveVersion } from './own-policy.ts';

test.use({ viewport: { width: 1280, height: 1000 } });

type Rule = { id: string; amount?: { gt?: string; lte?: string } } & Record<string, unknown>;

const SENTENCE = 'issue_refund (refund.issue), amount in (100, 250] USD: require approval → allow (widens)';

/**
 * The demo's refunds policy running (as the repository writes it), and a candidate saved after it and not running:
 * refunds up to 250 USD without approval, the rule "never" removed and one holding customer reads added, the whole
 * text re-serialised on one line, as a tool writes JSON.
 */
async function runningWithCandidate(page: Page): Promise<{ id: string; running: number; candidate: number }> {
  const request = page.request;
  const key = memberKey('owner');
  const id = ownPolicyId('review');
  const running = await saveVersion(request, key, id, REFUNDS_TEXT, null, 'the refunds policy');
  const policy = JSON.parse(REFUNDS_TEXT) as { rules: Rule[] };
  const rules = policy.rules
    .filter((r) => r.id !== 'never')
    .map((r) =>
      r.id === 'refund-auto'
        ? { ...r, amount: { ...r.amount, lte: '250' } }
        : r.id === 'refund-approval'
          ? { ...r, amount: { ...r.amount, gt: '250' } }
          : r,
    );
  rules.push({ id: 'customer-reads-held', actions: ['customers.read'], effect: 'require_approval', approvers: { roles: ['owner'] } });
  const candidate = await saveVersion(
    request,
    key,
    id,
    `${JSON.stringify({ ...policy, rules }, null, 4)}\n`,
    running,
    'a wider refund limit',
  );
  const activated = await request.post(`/v1/documents/${encodeURIComponent(id)}/activate`, {
    headers: { authorization: `Bearer ${key}` },
    data: { sequence: running },
  });
  expect(activated.ok(), await activated.text()).toBe(true);
  return { id, running, candidate };
}

/** The diff editors' accessible names, original then modified. */
function editorNames(page: Page): Promise<(string | null)[]> {
  return page.locator('.monaco-diff-editor [role="textbox"]').evaluateAll((boxes) => boxes.map((b) => b.getAttribute('aria-label')));
}

test('a reviewer reads the waiting candidate against the running version', async ({ page }) => {
  test.setTimeout(180_000);
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  await signIn(page, memberKey('viewer'));
  const { id, running, candidate } = await runningWithCandidate(page);
  await page.goto(`/#/history/${encodeURIComponent(id)}`);

  await test.step('the running version against the candidate, by default', async () => {
    await expect(page.getByLabel('From version')).toHaveValue(String(running));
    await expect(page.getByLabel('To version')).toHaveValue(String(candidate));
    await expect(page.getByRole('textbox', { name: `Version ${candidate}` })).toBeAttached({ timeout: MONACO_MS });
  });

  const summary = page.getByRole('region', { name: 'Summary of the change' });
  await test.step('one summary says each change once', async () => {
    await expect(summary.locator('.impact-verdict')).toHaveText(`Version ${candidate} against version ${running}: widens security`);
    await expect(summary).toContainText(/2 tools change decision in 2 regions; \d+ tools do not/);
    await expect(summary.getByRole('list', { name: 'Changes' })).toContainText(SENTENCE);
    await expect(page.getByRole('list', { name: 'Decision changes of refund-auto' })).toBeVisible();
    const text = (await page.locator('main').textContent()) ?? '';
    expect(text.split(SENTENCE).length - 1, 'the sentence on the page').toBe(1);
    expect(text).not.toContain('Does not widen security');
  });

  const diff = page.getByRole('region', { name: 'Text diff' });
  await test.step('ignoring formatting leaves the real change', async () => {
    const editor = diff.locator('.code-editor');
    const changed = async () => Number(await editor.getAttribute('data-changed-lines'));
    // As stored, the one-line candidate changes nearly every line of the running version.
    await expect(editor).toHaveAttribute('data-changed-lines', /\d+/);
    const raw = await changed();
    await diff.getByRole('checkbox', { name: 'Ignore formatting' }).check();
    // Read and written alike, the unchanged rules drop out: the limits and the rule swapped at the end remain.
    await expect.poll(changed).toBeLessThan(raw / 2);
    await expect(diff.getByText(/^Both versions read and written alike/)).toBeVisible();
    await page.screenshot({ path: 'test-results/screens/review-ignore-formatting.png', fullPage: true });
  });

  await test.step('the rules one by one, each with its decision change', async () => {
    await expect(page.getByRole('list', { name: `Added in version ${candidate}` })).toContainText('customer-reads-held');
    await expect(page.getByRole('list', { name: 'Decision changes of customer-reads-held' })).toHaveText(
      /^read_customer \(customers\.read\): deny \(DEFAULT\) → require approval by role owner \(\d+ eligible members?\) \(customer-reads-held\)$/,
    );
    await expect(page.getByRole('list', { name: `Removed in version ${candidate}` })).toHaveText('never decides no call differently');
    const changed = page.getByRole('list', { name: `Changed in version ${candidate}` });
    await expect(changed.getByRole('list', { name: 'Decision changes of refund-auto' })).toHaveText(
      /^issue_refund \(refund\.issue\), amount in \(100, 250\] USD: require approval by role admin, role approver, role owner \(\d+ eligible members?\) \(refund-approval\) → allow \(refund-auto\)$/,
    );
    await expect(changed).toContainText('refund-approval');
    await expect(page.getByText(/^Unchanged: /)).toContainText('read-orders');
  });

  await test.step('no axe finding of serious impact', async () => {
    expect(await seriousViolations(page)).toEqual([]);
  });

  const map = page.getByRole('table', { name: 'Decision map of the changed tools' });
  for (const width of [1280, 390]) {
    await test.step(`the map of the changed tools at ${width} px breaks no word`, async () => {
      await page.setViewportSize({ width, height: 1000 });
      await expect(map.getByRole('row')).toHaveCount(3);
      expect(await brokenWords(map.locator('th, td'))).toEqual([]);
      // The page never scrolls sideways; a map wider than the window scrolls in its own pane.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await map.screenshot({ path: `test-results/screens/review-map-${width}.png` });
    });
  }

  await test.step('the diff editors keep their names across the inline width and back', async () => {
    await page.setViewportSize({ width: 1280, height: 1000 });
    await expect.poll(() => editorNames(page)).toEqual([`Version ${running}`, `Version ${candidate}`]);
    await page.setViewportSize({ width: 390, height: 1000 });
    // Monaco marks the side-by-side layout on its root; inline, the class goes.
    await expect(page.locator('.monaco-diff-editor')).not.toHaveClass(/side-by-side/);
    await expect.poll(() => editorNames(page)).toEqual([`Version ${running}`, `Version ${candidate}`]);
    // Monaco takes two window resizes within 200 ms of each other for one dragged resize, and keeps a diff dragged
    // from narrow to wide inline until it is reset (docs/console.md, "Reviewing a change"):
    // the window is widened again as a separate resize, as a person would.
    await page.waitForTimeout(400);
    await page.setViewportSize({ width: 1280, height: 1000 });
    await expect(page.locator('.monaco-diff-editor')).toHaveClass(/side-by-side/);
    await expect.poll(() => editorNames(page)).toEqual([`Version ${running}`, `Version ${candidate}`]);
    await page.getByRole('link', { name: 'Back to the document' }).click();
    await expect(page.getByRole('link', { name: 'History and diffs' })).toBeVisible();
    await page.waitForTimeout(750);
    expect(errors).toEqual([]);
  });
});

test("a policy's decision map breaks no tool name at 1280 and 390 px", async ({ page }) => {
  await signIn(page, memberKey('viewer'), `#/documents/${encodeURIComponent('agents/support-bot.agent.yaml')}`);
  await page.getByRole('tab', { name: 'Decision map' }).click();
  const map = page.getByRole('table', { name: /^Decision map of support-bot under / });
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 1000 });
    await expect(map.getByRole('row').nth(1)).toBeVisible();
    expect(await brokenWords(map.locator('th, td')), `at ${width} px`).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `at ${width} px`).toBe(true);
    await map.screenshot({ path: `test-results/screens/decision-map-${width}.png` });
  }
});
