// Editing text in Monaco as a person does, for the journeys that change a document in the editor.
import type { Page } from '@playwright/test';

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
