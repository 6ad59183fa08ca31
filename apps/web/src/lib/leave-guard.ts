// Asking before leaving a page with unsaved text: pages hold the guard while they have such text; the router
// asks before an in-app move and the browser before a reload or a closed tab (docs/console.md, "Drafts").

const holds = new Set<() => boolean>();

/** The question asked before leaving unsaved text. */
export const LEAVE_QUESTION =
  'This page has unsaved text. Leave it? It stays in this browser as a draft and is offered back when you open the document again.';

/** Registers `hasUnsavedText`, asked at each attempt to leave; answers the release. Example: `useEffect(() => holdLeave(() => dirty.current), [])`. */
export function holdLeave(hasUnsavedText: () => boolean): () => void {
  holds.add(hasUnsavedText);
  return () => {
    holds.delete(hasUnsavedText);
  };
}

/** Whether any page holds unsaved text now. */
export function hasUnsavedText(): boolean {
  for (const unsaved of holds) if (unsaved()) return true;
  return false;
}

/** Whether the person may leave: true when nothing is unsaved, else their answer to LEAVE_QUESTION. */
export function mayLeave(ask: (question: string) => boolean = (question) => window.confirm(question)): boolean {
  return !hasUnsavedText() || ask(LEAVE_QUESTION);
}
