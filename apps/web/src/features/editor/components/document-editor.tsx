// One document open in Monaco: the engine checks each change; problems, compiled panes and saving beside it.
import type { LintCatalogue } from '@tollgate/engine';
import { type ReactNode, useCallback, useRef, useState } from 'react';
import { DraftNotice, DraftOffer } from '../../../components/draft-offer.tsx';
import { PageHeading } from '../../../components/page-heading.tsx';
import { ErrorNotice } from '../../../components/query-state.tsx';
import { documentKindWords } from '../../../lib/document-kind-words.ts';
import { CodeEditor, type CodeEditorHandle } from '../../../lib/monaco/code-editor.tsx';
import type { RunningText } from '../api/types.ts';
import { languageOf } from '../editor-language.ts';
import { useAfterPaint } from '../use-after-paint.ts';
import { useDocumentSave } from '../use-document-save.ts';
import { useLiveCheck } from '../use-live-check.ts';
import { CheckSummary } from './check-summary.tsx';
import { CompiledPanes } from './compiled-panes.tsx';
import { ProblemList } from './problem-list.tsx';
import { SaveForm } from './save-form.tsx';
import { SaveOutcome } from './save-outcome.tsx';

const NO_PROBLEMS: [] = [];

/** What panels beside the text are given; the app layer supplies them (features never import each other). */
export interface EditorAsideContext {
  id: string;
  text: string;
  reveal(line: number, column: number): void;
}

/** A save that met a newer running version: the version the edit was based on, the text, and how to save a merge. */
export interface ConflictContext {
  id: string;
  base: number | null;
  mine: string;
  saving: boolean;
  resubmit(text: string, basedOn: number): void;
}

interface DocumentEditorProps {
  opened: RunningText;
  catalogue: LintCatalogue | undefined;
  canSave: boolean;
  renderAside?: (context: EditorAsideContext) => ReactNode;
  renderConflict?: (context: ConflictContext) => ReactNode;
}

export function DocumentEditor({ opened, catalogue, canSave, renderAside, renderConflict }: DocumentEditorProps) {
  const { id } = opened;
  const [text, setText] = useState(opened.text);
  const editor = useRef<CodeEditorHandle>(null);
  // Checked in a worker; the versions let tests and the bench wait for the check of the newest text.
  const { check, failure, textVersion, checkedVersion } = useLiveCheck(id, text, catalogue);
  // The panes of a large sheet take a long layout: they follow once the markers are on screen.
  const outputs = useAfterPaint(check?.outputs);
  const replaceText = useCallback((next: string) => {
    editor.current?.setText(next);
    setText(next);
  }, []);
  const { reason, setReason, basedOn, setBasedOn, reasonInput, edit, reloadError, submit, save, reload, draft, restoreDraft } =
    useDocumentSave({
      id,
      canSave,
      initialBase: opened.version.sequence,
      initialText: opened.text,
      text,
      replaceText,
    });

  // A merge replaces the text and moves the base to the version it was merged with, then saves.
  const resubmit = useCallback(
    (merged: string, theirs: number) => {
      replaceText(merged);
      setBasedOn(theirs);
      submit(merged, theirs);
    },
    [replaceText, setBasedOn, submit],
  );
  const reveal = useCallback((line: number, column: number) => editor.current?.goTo(line, column), []);

  return (
    <div className="document-editor" data-text-version={textVersion} data-checked-version={checkedVersion}>
      <section className="panel editor-main" aria-labelledby="editor-doc-heading">
        <div className="panel-head">
          <PageHeading id="editor-doc-heading" title={`Edit ${documentKindWords(id).toLowerCase()}`} subject={id} />
          <span className="muted">{basedOn === null ? 'no running version' : `editing from version ${basedOn}`}</span>
        </div>
        {check === undefined ? <p className="status state-loading">Checking…</p> : <CheckSummary check={check} />}
        {failure !== null && <ErrorNotice error={new Error(`The check failed: ${failure}`)} />}
        {draft.offer !== null && (
          <DraftOffer
            draft={draft.offer}
            opened={{ version: opened.version.sequence, text: opened.text }}
            language={languageOf(id)}
            onRestore={restoreDraft}
            onDiscard={draft.discard}
          />
        )}
        <CodeEditor
          ref={editor}
          // The text when Monaco arrives: a draft restored before it did is not lost.
          initialText={text}
          language={languageOf(id)}
          diagnostics={check?.problems ?? NO_PROBLEMS}
          label="Document text"
          modelPath={id}
          onChange={setText}
          onSave={canSave ? save : undefined}
        />
        <DraftNotice kept={draft.kept} />
        {canSave ? (
          <SaveForm reason={reason} onReason={setReason} onSave={save} saving={edit.isPending} basedOn={basedOn} reasonRef={reasonInput} />
        ) : (
          <p className="muted">Your role can read this document but not save edits.</p>
        )}
        {edit.isError && <ErrorNotice error={edit.error} />}
        {reloadError !== null && <ErrorNotice error={reloadError} />}
        {edit.data !== undefined && <SaveOutcome outcome={edit.data} onReload={reload} />}
        {edit.data?.status === 'conflict' && renderConflict?.({ id, base: basedOn, mine: text, saving: edit.isPending, resubmit })}
      </section>
      <section className="panel editor-side" aria-labelledby="problems-heading">
        <h2 id="problems-heading" className="panel-title">
          Problems
        </h2>
        {check === undefined ? (
          <p className="state state-loading">Checking…</p>
        ) : (
          <ProblemList problems={check.problems} onJump={(line, column) => editor.current?.goTo(line, column)} />
        )}
        {outputs !== undefined && <CompiledPanes outputs={outputs} />}
        {renderAside?.({ id, text, reveal })}
      </section>
    </div>
  );
}
