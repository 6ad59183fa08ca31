// Editing text in Monaco as a person does, for the journeys that change a document in the editor.
import type { Page } from '@playwright/test';

/** Replaces `word` on the first editor line matching `line` by double-clicking it and typing. */
export async function replaceWord(page: Page, line: RegExp, word: string, replacement: string): Promise<void> {
  await page.locator('.view-line').filter({ hasText: line }).first().getByText(word).dblclick();
  await page.keyboard.type(replacement);
}
