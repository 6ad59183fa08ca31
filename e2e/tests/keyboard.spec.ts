// Journey: keyboard only (docs/console.md, "Keyboard"). Sign in, skip to the content, edit a policy in Monaco and save
// it, leave every editor (Esc then Tab, or Ctrl+M), and approve a held call: Tab and Enter, never the mouse.
/// <reference lib="dom" />
import { expect, type Locator, type Page, test } from '@playwright/test';
import { holdCall, MONACO_MS, openDiff, SHEET_ID, storeTwoVersions } from './console-states.ts';
import { memberKey } from './demo.ts';

test.use({ viewport: { width: 1280, height: 800 } });

/** Whether the focused element is inside a Monaco editor (its textarea, or Chromium's EditContext element). */
function focusInEditor(page: Page): Promise<boolean> {
  return page.evaluate(() => document.activeElement?.closest('.monaco-editor') != null);
}

/** Presses `key` until `done` holds, at most `limit` times; fails naming where the focus stopped. */
async function pressUntil(page: Page, key: string, done: () => Promise<boolean>, limit = 40): Promise<void> {
  for (let i = 0; i < limit; i++) {
    if (await done()) return;
    await page.keyboard.press(key);
  }
  const at = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 120));
  expect(await done(), `${key} ${limit} times did not get there; focus is on ${at}`).toBe(true);
}

function isFocused(target: Locator): Promise<boolean> {
  return target.evaluate((element) => element === document.activeElement);
}

/** Tabs from where the focus is into the first Monaco editor after it. */
async function tabIntoEditor(page: Page): Promise<void> {
  await pressUntil(page, 'Tab', () => focusInEditor(page));
}

/** Opens `hash` by address (not a click) and waits for its Monaco editor. */
async function openByAddress(page: Page, hash: string, editor: Locator): Promise<void> {
  await page.goto(`/${hash}`);
  await expect(editor).toBeVisible({ timeout: MONACO_MS });
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
}

/** Signs in by typing the key into the field focused on load and pressing Enter. */
async function signInByKeyboard(page: Page, key: string, hash: string): Promise<void> {
  await page.goto(`/${hash}`);
  await expect(page.getByLabel('Member key')).toBeFocused();
  await page.keyboard.type(key);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  // The page's own heading takes the focus once signed in.
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
}

test('a keyboard alone signs in, edits and saves a policy, leaves every editor and approves a held call', async ({ page, request }) => {
  test.setTimeout(180_000);
  await signInByKeyboard(page, memberKey('owner'), '#/documents');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Documents');

  // The skip link is the first stop and lands on the page's heading.
  await page.reload();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Documents', level: 1 })).toBeFocused();

  // In-app navigation by keyboard moves the focus to the new page's heading.
  const templates = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Templates' });
  await pressUntil(page, 'Shift+Tab', () => isFocused(templates));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Policy templates', level: 1 })).toBeFocused();

  // The policy editor: type, Tab indents inside, Esc then Tab leaves to the reason, which saves with Enter.
  const policyEditor = page.locator('.code-editor-host .monaco-editor');
  // A policy of the journey's own, so its save changes no other journey's documents.
  const versions = await storeTwoVersions(request, 'keyboard');
  await openByAddress(page, `#/edit/${encodeURIComponent(versions.id)}`, policyEditor);
  const hint = page.locator('.editor-key-hint');
  await expect(hint).toContainText('Ctrl+M: Tab moves focus');
  await tabIntoEditor(page);
  const described = await page.evaluate(() => document.activeElement?.getAttribute('aria-describedby'));
  expect(await page.evaluate((id) => document.getElementById(id ?? '')?.textContent, described)).toContain('Esc then Tab');
  const editorState = page.locator('.document-editor');
  const before = Number(await editorState.getAttribute('data-text-version'));
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  expect(await focusInEditor(page), 'Tab indents inside the editor').toBe(true);
  await expect(editorState).toHaveAttribute('data-text-version', String(before + 2));
  await page.keyboard.press('Escape');
  await page.keyboard.press('Tab');
  const reason = page.getByLabel('Reason for the edit');
  await expect(reason).toBeFocused();
  await page.keyboard.type('a trailing blank line, typed by keyboard');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status', { name: 'Save outcome' })).toBeVisible();

  // Back in with Shift+Tab; Ctrl+M makes Tab move focus until pressed again.
  await page.keyboard.press('Shift+Tab');
  await pressUntil(page, 'Shift+Tab', () => focusInEditor(page), 5);
  await page.keyboard.press('Control+M');
  await expect(hint).toContainText('Ctrl+M: Tab indents again');
  await page.keyboard.press('Tab');
  await expect(reason).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await pressUntil(page, 'Shift+Tab', () => focusInEditor(page), 5);
  await page.keyboard.press('Control+M');
  await expect(hint).toContainText('Ctrl+M: Tab moves focus');

  // The sheet editor and the Rules page's YAML: Esc then Tab reaches the control after each.
  await openByAddress(page, `#/edit/${encodeURIComponent(SHEET_ID)}`, page.locator('.code-editor-host .monaco-editor'));
  await tabIntoEditor(page);
  await page.keyboard.press('Escape');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Reason for the edit')).toBeFocused();

  await openByAddress(page, `#/rules/${encodeURIComponent(SHEET_ID)}`, page.locator('.rules-yaml .monaco-editor'));
  // Past every field of the form to the YAML, then out to the next control: the compiled Colang pane.
  await pressUntil(page, 'Tab', () => focusInEditor(page), 120);
  await page.keyboard.press('Escape');
  await page.keyboard.press('Tab');
  expect(await focusInEditor(page), 'Esc then Tab leaves the YAML').toBe(false);
  expect(await page.evaluate(() => document.activeElement?.closest('.rules-yaml') != null), 'the focus stays on the YAML side').toBe(true);

  // The history's diff (two read-only editors): Ctrl+M, then Tab walks out of both to the impact summary's page.
  await openDiff(page, { ...versions, to: versions.to + 1 });
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
  await pressUntil(page, 'Tab', () => focusInEditor(page), 120);
  await page.keyboard.press('Control+M');
  await pressUntil(page, 'Tab', async () => !(await focusInEditor(page)), 4);
  expect(await page.evaluate(() => document.activeElement?.closest('.diff-editor-host') == null)).toBe(true);
  // Back in, and Ctrl+M again: Tab indents in every editor as before.
  await pressUntil(page, 'Shift+Tab', () => focusInEditor(page), 4);
  await page.keyboard.press('Control+M');
  await expect(page.locator('.compare .editor-key-hint')).toContainText('Ctrl+M: Tab moves focus');

  // The approvals inbox: a held call approved with Tab and Enter.
  await pressUntil(page, 'Shift+Tab', () => isFocused(page.getByRole('button', { name: 'Sign out' })), 120);
  await page.keyboard.press('Enter');
  await signInByKeyboard(page, memberKey('approver'), '#/approvals');
  await holdCall(request);
  // Read afresh: the call may have been held before the page's event stream was open.
  await page.reload();
  await pressUntil(page, 'Tab', () => isFocused(page.getByRole('link', { name: 'Skip to content' })), 3);
  const pending = page.getByRole('list', { name: 'Pending requests' }).getByRole('listitem');
  await expect(pending.first()).toBeVisible();
  const approve = page.getByRole('region', { name: 'Selected call' }).getByRole('button', { name: 'Approve' });
  await pressUntil(page, 'Tab', () => isFocused(approve));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('region', { name: 'Signed decision' })).toBeVisible();
});
