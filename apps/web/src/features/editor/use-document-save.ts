// Saving a document through the edit seam, as every editing page does: a reason (required), the version the
// text was based on, the outcome, a reload of the running version on a conflict, and Ctrl/Cmd+S anywhere.
// Unsaved text is kept as a draft until a save succeeds (hooks/use-draft.ts).
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { type DraftState, useDraft } from '../../hooks/use-draft.ts';
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
  /** The draft kept of unsaved text, and the one offered back on opening. */
  draft: DraftState;
  /** Puts the offered draft's text in place, based on the draft's base. */
  restoreDraft(): void;
}

export function useDocumentSave(options: {
  id: string;
  canSave: boolean;
  initialBase: number | null;
  /** The text of the version the page opened. */
  initialText: string;
  text: string;
  replaceText(text: string): void;
}): DocumentSave {
  const { id, canSave, text, replaceText } = options;
  const [reason, setReason] = useState('');
  const [basedOn, setBasedOn] = useState<number | null>(options.initialBase);
  // The stored text the current one is compared with: what was opened, saved or reloaded last.
  const [baseText, setBaseText] = useState(options.initialText);
  const draft = useDraft({ id, base: basedOn, text, baseText, enabled: canSave });
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
            if (outcome.status === 'applied' || outcome.status === 'saved_not_running') {
              setReason('');
              setBaseText(content);
              draft.clear();
            }
          },
        },
      );
    },
    [canSave, edit, id, reason, draft],
  );
  const save = useCallback(() => submit(text, basedOn), [submit, text, basedOn]);

  const reload = useCallback(() => {
    getRunningDocument(id).then(
      (running) => {
        replaceText(running.text);
        setBaseText(running.text);
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

  const restoreDraft = useCallback(() => {
    const taken = draft.restore();
    if (taken === null) return;
    replaceText(taken.text);
    setBasedOn(taken.base);
  }, [draft, replaceText]);

  return { reason, setReason, basedOn, setBasedOn, reasonInput, edit, reloadError, submit, save, reload, draft, restoreDraft };
}
