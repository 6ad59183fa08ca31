// Where the selection (and focus) goes when a call leaves the inbox (docs/console.md, "Approvals inbox"): to the
// next row, else the one before, else the "Nothing is waiting" message (inbox/use-inbox-selection.ts).
/**
 * The id of the card to focus once `leaving` is gone: the first of `present` after it in `ids`, else the
 * nearest before it; null when none is present. `present` is every id but `leaving` unless given.
 */
export function nextFocus(ids: readonly string[], leaving: string, present?: ReadonlySet<string>): string | null {
  const left = (id: string) => id !== leaving && (present === undefined || present.has(id));
  const at = ids.indexOf(leaving);
  if (at === -1) return ids.find(left) ?? null;
  return ids.slice(at + 1).find(left) ?? ids.slice(0, at).reverse().find(left) ?? null;
}
