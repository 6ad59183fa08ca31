// Measures of how a page lays out text, shared by the layout journeys.
/// <reference lib="dom" />
import type { Locator } from '@playwright/test';

/** The words in `cells` the browser broke across lines: a run of letters laid out on more than one line. */
export function brokenWords(cells: Locator): Promise<string[]> {
  return cells.evaluateAll((elements) => {
    const broken: string[] = [];
    for (const element of elements) {
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        // A line may end after a hyphen ("refund-" / "over-limit"), never inside a run of letters.
        for (const match of text.matchAll(/[^\s-]+-?/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
          if (lines.size > 1) broken.push(match[0]);
        }
      }
    }
    return broken;
  });
}
