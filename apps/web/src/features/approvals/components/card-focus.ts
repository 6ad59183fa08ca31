// Where focus goes when a card leaves the inbox (docs/console.md, "Approvals inbox"): to the next card, else
// the one before, else the "Nothing is waiting" message. A card leaves when its decision is answered, or
// earlier, when the live list drops it (the event of the decision can arrive before its answer): either way
// focus follows, and is never left on the page's body while the person works through the inbox.
import { type RefObject, useLayoutEffect, useRef } from 'react';

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

/** Whether focus is nowhere a person put it: on the body, as when its element left the page. */
const focusLost = () => document.activeElement === null || document.activeElement === document.body;

/** The card elements by id, and what the list calls when a card takes focus or a decision is answered. */
export interface CardFocus {
  cards: RefObject<Map<string, HTMLLIElement>>;
  /** For the list's onFocus: remembers the card that holds focus. */
  onFocusIn: (target: EventTarget) => void;
  /** After `id`'s decision is answered: focus moves on from its card, unless the person has moved it already. */
  decided: (id: string) => void;
}

/**
 * Moves focus off cards as they leave `ids` (the list as shown); `empty` is the message shown once none is left.
 */
export function useCardFocus(ids: readonly string[] | undefined, empty: RefObject<HTMLElement | null>): CardFocus {
  const cards = useRef(new Map<string, HTMLLIElement>());
  /** The card that holds focus, or held it when its element left the page. */
  const holder = useRef<string | null>(null);
  const shown = useRef<readonly string[]>([]);

  const focusAfter = (previous: readonly string[], leaving: string, present: ReadonlySet<string>) => {
    const next = nextFocus(previous, leaving, present);
    const card = next === null ? undefined : cards.current.get(next);
    if (card) card.focus();
    else if (present.size === 0) empty.current?.focus();
  };

  useLayoutEffect(() => {
    if (ids === undefined) return;
    const previous = shown.current;
    shown.current = ids;
    const present = new Set(ids);
    const gone = holder.current;
    if (gone !== null && !present.has(gone) && previous.includes(gone) && focusLost()) focusAfter(previous, gone, present);
  });

  return {
    cards,
    onFocusIn: (target) => {
      const card = target instanceof Element ? target.closest<HTMLLIElement>('li[data-approval]') : null;
      holder.current = card?.dataset.approval ?? null;
    },
    decided: (id) => {
      const card = cards.current.get(id);
      const inCard = card?.contains(document.activeElement) === true;
      if (!inCard && !focusLost()) return;
      const list = shown.current;
      focusAfter(list, id, new Set(list.filter((other) => other !== id)));
    },
  };
}
