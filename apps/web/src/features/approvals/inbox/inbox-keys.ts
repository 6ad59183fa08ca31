// The inbox's keyboard shortcuts (docs/console.md, "Approvals inbox"): which command a key press is, and never
// one while the person types in a field, so "a" in a reason is a letter, not an approval.

export type InboxCommand = 'next' | 'previous' | 'approve' | 'deny' | 'reason' | 'filter' | 'help';

/** The shortcuts as the page lists them. */
export const SHORTCUTS: readonly { keys: string; what: string }[] = [
  { keys: 'j or ↓', what: 'next call' },
  { keys: 'k or ↑', what: 'previous call' },
  { keys: 'a', what: 'approve the selected call' },
  { keys: 'd', what: 'deny the selected call' },
  { keys: 'r', what: 'type a reason (Esc returns to the list)' },
  { keys: '/', what: 'filter the calls' },
  { keys: '?', what: 'show or hide these shortcuts' },
];

/** What a key press names: the key, its modifiers, and the element it was pressed on. */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  /** The focused element's tag name (upper case, as the DOM gives it) and whether it is editable text. */
  targetTag: string;
  targetEditable: boolean;
  /** Whether the focus is on one of the list's rows (the arrow keys move only there; elsewhere they scroll). */
  inList: boolean;
}

const TYPING_TAGS = new Set(['INPUT', 'TEXTAREA', 'SELECT']);

/** Whether a key pressed on this element is typing (a field, a select, editable text). */
export const isTyping = (press: Pick<KeyPress, 'targetTag' | 'targetEditable'>) => TYPING_TAGS.has(press.targetTag) || press.targetEditable;

/**
 * The command a key press names, or null (typing, a modified key, any other key).
 *
 * @example
 * commandOf({ key: 'j', ctrlKey: false, metaKey: false, altKey: false, targetTag: 'BODY', targetEditable: false, inList: false }) // 'next'
 */
export function commandOf(press: KeyPress): InboxCommand | null {
  if (press.ctrlKey || press.metaKey || press.altKey || isTyping(press)) return null;
  switch (press.key) {
    case 'j':
      return 'next';
    case 'k':
      return 'previous';
    case 'ArrowDown':
      return press.inList ? 'next' : null;
    case 'ArrowUp':
      return press.inList ? 'previous' : null;
    case 'a':
      return 'approve';
    case 'd':
      return 'deny';
    case 'r':
      return 'reason';
    case '/':
      return 'filter';
    case '?':
      return 'help';
    default:
      return null;
  }
}

/** The id `step` rows from `current` in `ids`, staying at the ends; the first when `current` is not among them. */
export function moveSelection(ids: readonly string[], current: string | null, step: 1 | -1): string | null {
  if (ids.length === 0) return null;
  const at = current === null ? -1 : ids.indexOf(current);
  if (at === -1) return ids[0] ?? null;
  return ids[Math.min(ids.length - 1, Math.max(0, at + step))] ?? null;
}
