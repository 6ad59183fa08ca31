// Saving a document through the edit seam, as every editing page does: a reason (required), the version the
// text was based on, the outcome, a reload of the running version on a conflict, and Ctrl/Cmd+S anywhere.
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { getRunningDocument } from './api/get-running-document.ts';
import { usePostEdit } from './api/post-edit.ts';

export interface DocumentSave {
  reason: string;
  setReason(reason: string): void;
  basedOn: number | null;
  reasonInput: RefObject<HTMLInputElement | null>;
  edit: ReturnType<typeof usePostEdit>;
  reloadError: Error | null;
  /** Saves `content` based on `base` (a merge moves the base). */
  submit(content: string, base: number | null): void;
  /** Saves the current text. */
  save(): void;
  /** Replaces the text with the running version's and bases the next save on it. */
  reload(): void;
  /** Moves the base, for a merged text. */
  setBasedOn(base: number | null): void;
}

export function useDocumentSave(options: {
  id: string;
  canSave: boolean;
  initialBase: number | null;
  text: string;
  replaceText(text: string): void;
}): DocumentSave {
  const { id, canSave, text, replaceText } = options;
  const [reason, setReason] = useState('');
  const [basedOn, setBasedOn] = useState<number | null>(options.initialBase);
  const [reloadError, setReloadError] = useState<Error | null>(null);
  const reasonInput = useRef<HTMLInputElement>(null);
  const edit = usePostEdit();

  const submit = useCallback(
    (content: string, base: number | null) => {
      if (!canSave || edit.isPending) return;
      if (reason.trim() === '') {
        reasonInput.current?.focus();
        reasonInput.current?.reportValidity();
        return;
      }
      edit.mutate(
        { id, content, reason: reason.trim(), basedOn: base },
        {
          onSuccess: (outcome) => {
            if (outcome.status === 'applied' && outcome.version) setBasedOn(outcome.version.sequence);
            if (outcome.status === 'applied' || outcome.status === 'saved_not_running') setReason('');
          },
        },
      );
    },
    [canSave, edit, id, reason],
  );
  const save = useCallback(() => submit(text, basedOn), [submit, text, basedOn]);

  const reload = useCallback(() => {
    getRunningDocument(id).then(
      (running) => {
        replaceText(running.text);
        setBasedOn(running.version.sequence);
        edit.reset();
      },
      (error: unknown) => setReloadError(error instanceof Error ? error : new Error('the reload failed')),
    );
  }, [id, edit, replaceText]);

  // Ctrl/Cmd+S outside the editor (the reason field, a pane, a form) saves too.
  useEffect(() => {
    if (!canSave) return;
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
        event.preventDefault();
        save();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [canSave, save]);

  return { reason, setReason, basedOn, setBasedOn, reasonInput, edit, reloadError, submit, save, reload };
}
