// Editing text in Monaco as a person does, for the journeys that change a document in the editor.
import type { Locator, Page } from '@playwright/test';

/**
 * Replaces `word` on the first editor line matching `line` by double-clicking it and typing. The word is found
 * as a token of its own (bare or quoted): until Monaco has tokenized the line, the line is one span, and a
 * double-click at its middle would select another word.
 */
export async function replaceWord(page: Page, line: RegExp, word: string, replacement: string): Promise<void> {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const token = new RegExp(`^"?${escaped}"?,?$`);
  await page.locator('.view-line').filter({ hasText: line }).first().locator('span > span').filter({ hasText: token }).first().dblclick();
  await page.keyboard.type(replacement);
}

/**
 * Replaces the whole text of the Monaco editor `editor` (its `.monaco-editor`) as a person pasting it would: the text
 * goes to the clipboard, then select everything and paste. Typing it (keyboard.insertText) would meet Monaco's
 * auto-indent and auto-closing brackets; a paste is taken as it is.
 */
export async function replaceEditorText(page: Page, editor: Locator, text: string): Promise<void> {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.evaluate((pasted) => navigator.clipboard.writeText(pasted), text);
  await editor.locator('.view-lines').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('ControlOrMeta+V');
}
