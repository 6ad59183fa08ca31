// The inbox's shortcuts, listened to on the document while the inbox is shown (inbox-keys.ts says which key is
// which command, and none while typing). Esc in the filter box or the reason field goes back to the list.
import { useEffect, useRef } from 'react';
import { commandOf, type InboxCommand } from './inbox-keys.ts';

export interface InboxKeyHandlers {
  /** Runs a command; the key's default (scrolling, typing "/") is prevented. */
  run: (command: InboxCommand) => void;
  /** Esc pressed in one of these fields returns the focus to the selected row. */
  escapeFrom: () => (HTMLElement | null)[];
  /** The list, where the arrow keys move the selection. */
  list: () => HTMLElement | null;
  backToList: () => void;
}

export function useInboxKeys(handlers: InboxKeyHandlers): void {
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      const target = event.target instanceof HTMLElement ? event.target : null;
      const { run, escapeFrom, list, backToList } = latest.current;
      if (event.key === 'Escape' && target !== null && escapeFrom().includes(target)) {
        event.preventDefault();
        backToList();
        return;
      }
      const command = commandOf({
        key: event.key,
        ctrlKey: event.ctrlKey,
        metaKey: event.metaKey,
        altKey: event.altKey,
        targetTag: target?.tagName ?? 'BODY',
        targetEditable: target?.isContentEditable ?? false,
        inList: target !== null && list()?.contains(target) === true,
      });
      if (command === null) return;
      event.preventDefault();
      run(command);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}
