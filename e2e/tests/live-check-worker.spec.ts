// Journey: typing in the sheet editor is checked in a web worker; the editor's versions show when the check of the
// newest text is in, and the main thread never loads the checker (docs/console.md, "Live checks off the main thread").
import { expect, test } from '@playwright/test';
import { memberKey, signIn } from './demo.ts';

test('the sheet editor checks each change in a worker and marks the checked version', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  await signIn(page, memberKey('owner'), `#/edit/${encodeURIComponent('sheets/support.rules.yaml')}`);

  const editor = page.locator('.document-editor');
  await expect(editor).toHaveAttribute('data-checked-version', '1');
  await expect(page.getByRole('figure', { name: 'Colang' })).toContainText('define flow export_customers');
  expect(page.workers().map((w) => w.url())).toContainEqual(expect.stringMatching(/check-worker/));

  // Each text React commits is a new version (fast keystrokes may share one); the check catches up with the newest.
  await page.locator('.view-line').filter({ hasText: /never/ }).getByText('never').dblclick();
  await page.keyboard.type('forbid');
  const caughtUp = async () => {
    const text = Number(await editor.getAttribute('data-text-version'));
    return text > 1 && String(text) === (await editor.getAttribute('data-checked-version'));
  };
  await expect.poll(caughtUp).toBe(true);
  const problem = page.getByRole('list', { name: 'Problems' }).getByRole('listitem').filter({ hasText: 'rule_sheet_unsupported' });
  await expect(problem).toContainText('line 8');
  await expect(page.locator('.squiggly-error')).toHaveCount(1);

  // The main-thread fallback (the check-protocol chunk) was never fetched: the worker did the work.
  expect(scripts.filter((url) => /check-protocol/.test(url))).toEqual([]);
});

test('when the worker cannot load, the editor checks on the main thread instead', async ({ page }) => {
  await page.route(/check-worker/, (route) => route.abort());
  const fallback = page.waitForRequest(/check-protocol/);
  await signIn(page, memberKey('owner'), `#/edit/${encodeURIComponent('sheets/support.rules.yaml')}`);
  await fallback;

  await expect(page.locator('.document-editor')).toHaveAttribute('data-checked-version', '1');
  await expect(page.getByRole('figure', { name: 'Colang' })).toContainText('define flow export_customers');
  await page.locator('.view-line').filter({ hasText: /never/ }).getByText('never').dblclick();
  await page.keyboard.type('forbid');
  const problem = page.getByRole('list', { name: 'Problems' }).getByRole('listitem').filter({ hasText: 'rule_sheet_unsupported' });
  await expect(problem).toContainText('line 8');
  await expect(page.locator('.squiggly-error')).toHaveCount(1);
});
