// Which call the inbox shows in its pane, and where the focus goes when that call leaves the list (decided here,
// decided by someone else, or filtered out): the next row, else the one before (card-focus.ts's nextFocus), else
// the empty message. Focus moves only when it was in the inbox or lost to the page's body, never from wherever
// else the person has put it.
import { type RefObject, useLayoutEffect, useRef, useState } from 'react';
import { nextFocus } from '../components/card-focus.ts';
import { moveSelection } from './inbox-keys.ts';

export interface InboxSelection {
  /** The selected id: the one chosen while it is listed, else the first listed; null when none is. */
  selected: string | null;
  select: (id: string, focus?: boolean) => void;
  /** Moves the selection one row down (1) or up (-1), and the focus with it. */
  move: (step: 1 | -1) => void;
  /** The row buttons by id, for the list to fill. */
  rows: RefObject<Map<string, HTMLButtonElement>>;
  focusSelected: () => void;
}

const focusLost = () => document.activeElement === null || document.activeElement === document.body;

/**
 * `holdsFocus` says whether the focus is on the list or the pane (not the filters, where a typed filter that
 * hides the selected call must leave the focus in the box); `empty` is the message shown once none is listed.
 */
export function useInboxSelection(ids: readonly string[], holdsFocus: () => boolean, empty: RefObject<HTMLElement | null>): InboxSelection {
  const [chosen, setChosen] = useState<string | null>(null);
  const rows = useRef(new Map<string, HTMLButtonElement>());
  const shown = useRef<{ ids: readonly string[]; selected: string | null }>({ ids: [], selected: null });
  const selected = chosen !== null && ids.includes(chosen) ? chosen : (ids[0] ?? null);

  const focusRow = (id: string | null) => {
    const row = id === null ? undefined : rows.current.get(id);
    if (row) row.focus();
    else if (id === null) empty.current?.focus();
  };

  useLayoutEffect(() => {
    const before = shown.current;
    shown.current = { ids, selected };
    const gone = before.selected;
    if (gone === null || ids.includes(gone)) return;
    // The selected call left: the next one is selected, and takes the focus if the inbox held it.
    const next = nextFocus(before.ids, gone, new Set(ids));
    const inInbox = holdsFocus();
    setChosen(next);
    shown.current = { ids, selected: next ?? ids[0] ?? null };
    if (inInbox || focusLost()) focusRow(next ?? ids[0] ?? null);
  });

  return {
    selected,
    select: (id, focus = false) => {
      setChosen(id);
      if (focus) focusRow(id);
    },
    move: (step) => {
      const next = moveSelection(ids, selected, step);
      if (next === null) return;
      setChosen(next);
      focusRow(next);
    },
    rows,
    focusSelected: () => focusRow(selected),
  };
}
