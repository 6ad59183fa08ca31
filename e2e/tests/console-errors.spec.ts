// Every page of the console, visited in one tab as a person would (Monaco editors and diffs opened one after
// another), with no error in the browser's console and no uncaught exception on the page.
import { expect, type Page, test } from '@playwright/test';
import { MONACO_MS, storeTwoVersions } from './console-states.ts';
import { memberKey, signIn } from './demo.ts';
import { REFUNDS_EXAMPLES, saveVersion } from './own-policy.ts';

const SHEET = encodeURIComponent('sheets/support.rules.yaml');
const RULESET = encodeURIComponent('rulesets/support.ruleset.json');

// Monaco's chunks are large; on a busy machine they take a while to arrive and run.
const MONACO = { timeout: 30_000 };

/** Each page and what shows once it has settled, with `policy` the id of a policy in two versions. */
const pages = (policy: string): { hash: string; settled: (page: Page) => Promise<void> }[] => [
  { hash: '#/documents', settled: (p) => expect(p.getByRole('list', { name: 'policy' })).toBeVisible() },
  { hash: `#/documents/${policy}`, settled: (p) => expect(p.getByRole('link', { name: 'Edit' })).toBeVisible() },
  // JSON first: its language loads the editor's contributions, which used to find their services unknown later.
  { hash: `#/edit/${policy}`, settled: (p) => expect(p.locator('.document-editor .monaco-editor')).toBeVisible(MONACO) },
  { hash: `#/history/${policy}`, settled: (p) => expect(p.locator('.monaco-diff-editor').first()).toBeVisible(MONACO) },
  { hash: `#/edit/${SHEET}`, settled: (p) => expect(p.locator('.document-editor .monaco-editor')).toBeVisible(MONACO) },
  { hash: `#/rules/${SHEET}`, settled: (p) => expect(p.locator('.rules-yaml .monaco-editor')).toBeVisible(MONACO) },
  { hash: '#/approvals', settled: (p) => expect(p.getByRole('tab', { name: 'Pending' })).toBeVisible() },
  { hash: '#/approvals/decided', settled: (p) => expect(p.getByRole('tab', { name: 'Decided' })).toBeVisible() },
  { hash: '#/playground', settled: (p) => expect(p.locator('.code-editor-host .monaco-editor')).toBeVisible({ timeout: MONACO_MS }) },
  { hash: '#/simulation', settled: (p) => expect(p.getByRole('button', { name: 'Run' })).toBeVisible() },
  {
    hash: '#/templates',
    settled: (p) =>
      expect(
        p
          .getByRole('heading')
          .filter({ hasText: /template/i })
          .first(),
      ).toBeVisible(),
  },
  { hash: '#/rulesets', settled: (p) => expect(p.getByRole('link', { name: 'Support', exact: true })).toBeVisible() },
  { hash: `#/rulesets/${RULESET}`, settled: (p) => expect(p.locator('#set-versions-heading')).toBeVisible() },
];

test('every page opens with no console error and no uncaught exception', async ({ page, request }) => {
  test.setTimeout(180_000);
  // A policy of this journey's own in two versions, so the history page opens a diff.
  const { id } = await storeTwoVersions(request, 'console-errors');
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));

  await signIn(page, memberKey('owner'));
  // A policy without an example suite yet: no suite is an empty state, never a failed request.
  await page.goto(`/#/edit/${encodeURIComponent(id)}`);
  await expect(page.locator('.document-editor .monaco-editor')).toBeVisible(MONACO);
  await page.waitForTimeout(750);
  expect(errors, 'the editor of a policy without a suite').toEqual([]);
  // With its example suite, as the demo's refunds policy has one: the editor reads it beside the policy.
  const suite = id.replace(/\.policy\.json$/, '.examples.json');
  await saveVersion(request, memberKey('owner'), suite, REFUNDS_EXAMPLES, null, 'the refunds examples');
  for (const { hash, settled } of pages(encodeURIComponent(id))) {
    await page.goto(`/${hash}`);
    await settled(page);
    // Monaco's contributions and the page's queries report within a moment of the page showing.
    await page.waitForTimeout(750);
    expect(errors, `after ${hash}`).toEqual([]);
  }
});
