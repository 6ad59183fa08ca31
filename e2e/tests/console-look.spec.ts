// Journey: the console's first impression (docs/console.md, "Page headings, links and times"). Each page's h1 names
// the page and the thing on it; the documents tree folds away beside a document and stays folded on reload; a time
// reads relatively with the absolute instant, in the reader's locale, as its title; the policy playground is Monaco
// with the engine's markers and the keyboard way out. axe runs on each changed state.
/// <reference lib="dom" />
import { expect, test } from '@playwright/test';
import { seriousViolations } from './axe.ts';
import { MONACO_MS } from './console-states.ts';
import { memberKey, signIn } from './demo.ts';
import { REFUNDS_ID } from './history.ts';
import { replaceEditorText } from './monaco-edit.ts';

test.use({ viewport: { width: 1280, height: 800 } });

test('a document page names its document, folds its tree away and keeps it folded', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, memberKey('owner'), `#/documents/${encodeURIComponent(REFUNDS_ID)}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Policy ${REFUNDS_ID}`);
  await expect(page.getByRole('heading', { level: 1, name: `Policy ${REFUNDS_ID}` })).toBeVisible();
  // A link drawn by the console, not the browser's default blue (rgb(0, 0, 238)).
  const history = page.getByRole('link', { name: 'History and diffs' });
  expect(await history.evaluate((a) => getComputedStyle(a).color)).not.toBe('rgb(0, 0, 238)');

  const toggle = page.getByRole('button', { name: 'All documents' });
  const tree = page.getByRole('navigation', { name: 'Document tree' });
  const detail = page.locator('.documents-layout > :nth-child(2)');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(tree).toBeVisible();
  const besideTree = (await detail.boundingBox())?.width ?? 0;
  // Beside a document the tree takes about a quarter of the width, not the third it took.
  const treeWidth = (await page.locator('.documents-tree-panel').boundingBox())?.width ?? 0;
  expect(treeWidth / (treeWidth + besideTree)).toBeLessThan(0.3);
  expect(await seriousViolations(page), 'axe with the tree shown').toEqual([]);

  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(tree).toBeHidden();
  await expect.poll(async () => (await detail.boundingBox())?.width ?? 0).toBeGreaterThan(besideTree + 150);
  expect(await seriousViolations(page), 'axe with the tree hidden').toEqual([]);

  await page.reload();
  await expect(page.getByRole('button', { name: 'All documents' })).toHaveAttribute('aria-expanded', 'false');
  await expect(tree).toBeHidden();

  // Keyboard: the button opens it again, and that is remembered too.
  await page.getByRole('button', { name: 'All documents' }).focus();
  await page.keyboard.press('Enter');
  await expect(tree).toBeVisible();
  await page.reload();
  await expect(page.getByRole('button', { name: 'All documents' })).toHaveAttribute('aria-expanded', 'true');
  await expect(tree).toBeVisible();
});

test('a time reads relatively, with the absolute instant in the reader’s locale as its title', async ({ browser }) => {
  test.setTimeout(120_000);
  for (const locale of ['en-US', 'de-DE']) {
    const context = await browser.newContext({ locale, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await signIn(page, memberKey('owner'), `#/documents/${encodeURIComponent(REFUNDS_ID)}`);
    const time = page.getByRole('region', { name: 'History' }).locator('time').first();
    await expect(time).toBeVisible();
    const datetime = (await time.getAttribute('datetime')) ?? '';
    expect(Number.isNaN(Date.parse(datetime)), `datetime ${datetime} is an instant`).toBe(false);
    const expected = await page.evaluate(
      (at) => ({
        title: new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'long' }).format(Date.parse(at)),
        language: navigator.language,
      }),
      datetime,
    );
    expect(expected.language).toBe(locale);
    await expect(time).toHaveAttribute('title', expected.title);
    // Relative words in the same locale: "… ago" / "vor …" (or "now" / "jetzt" for a version stored just now).
    await expect(time).toHaveText(locale === 'de-DE' ? /vor|jetzt/ : /ago|now/);
    await context.close();
  }
});

test('the playground is Monaco: a bad input is marked where it is, and Esc then Tab leaves the editor', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/#/playground');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Policy playground');
  const editor = page.locator('.code-editor-host .monaco-editor');
  await expect(editor).toBeVisible({ timeout: MONACO_MS });
  await expect(page.getByRole('status')).toHaveText('Valid · revision 1');
  await expect(editor.locator('.squiggly-error')).toHaveCount(0);

  // An unknown member on line 5 and a permissive default on line 3: each marked on its own line.
  await replaceEditorText(
    page,
    editor,
    '{\n  "schema": "tollgate/policy@1",\n  "default": "allow",\n  "rules": [\n    { "id": "read-orders", "actions": ["orders.read"], "efect": "allow" }\n  ]\n}',
  );
  await expect(page.getByRole('status')).toHaveText(/problems/);
  await expect(editor.locator('.squiggly-error').first()).toBeAttached();
  const markedLines = await editor.evaluate((root) => {
    // Monaco draws a marker's squiggle in the line's overlay, at the same top as the line's text.
    const tops = [...root.querySelectorAll<HTMLElement>('.squiggly-error')].map((s) => s.parentElement?.style.top ?? '');
    const lines = [...root.querySelectorAll<HTMLElement>('.view-line')].map((l) => ({ top: l.style.top, text: l.textContent ?? '' }));
    return tops.map(
      (top) =>
        lines
          .find((l) => l.top === top)
          ?.text.replace(/\u00a0/g, ' ')
          .trim() ?? '',
    );
  });
  expect(markedLines.some((text) => text.includes('"default": "allow"'))).toBe(true);
  expect(markedLines.some((text) => text.includes('"efect"'))).toBe(true);

  // A problem in the list puts the cursor on its place; Esc then Tab leaves the editor for the next control.
  const problems = page.getByRole('list', { name: 'Problems' }).getByRole('button');
  await problems.filter({ hasText: 'UNKNOWN_MEMBER' }).click();
  expect(await page.evaluate(() => document.activeElement?.closest('.monaco-editor') != null)).toBe(true);
  await page.keyboard.press('Escape');
  await page.keyboard.press('Tab');
  await expect(problems.first()).toBeFocused();
  expect(await seriousViolations(page), 'axe on the playground with problems').toEqual([]);
});
