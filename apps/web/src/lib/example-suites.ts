// A policy's example calls, kept in this browser per document id. The store has no document kind for
// example suites yet (docs/console.md, "Policy editor"), so a draft's examples travel here from the gallery.
const PREFIX = 'tollgate.examples:';

/** The suite text kept for a document, or '' when there is none. Example: `readExampleSuite('policies/a.policy.json')`. */
export function readExampleSuite(id: string): string {
  try {
    return localStorage.getItem(PREFIX + id) ?? '';
  } catch {
    // Storage can be switched off; the panel then starts empty every time.
    return '';
  }
}

/** Keeps a document's suite text; an empty text forgets it. */
export function writeExampleSuite(id: string, text: string): void {
  try {
    if (text.trim() === '') localStorage.removeItem(PREFIX + id);
    else localStorage.setItem(PREFIX + id, text);
  } catch {
    // Full or switched-off storage: the suite lives for this page only.
  }
}
