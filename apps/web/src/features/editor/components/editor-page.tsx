// The editor page: loads the running version (and the catalogue sheets lint against), then opens it.
import { documentKindOf } from '@tollgate/engine';
import type { ReactNode } from 'react';
import { ErrorNotice, Loading } from '../../../components/query-state.tsx';
import { useLintCatalogue } from '../api/get-lint-catalogue.ts';
import { useRunningDocument } from '../api/get-running-document.ts';
import { type ConflictContext, DocumentEditor, type EditorAsideContext } from './document-editor.tsx';

interface EditorPageProps {
  id: string;
  canSave: boolean;
  backHref: string;
  /** Where a rule sheet opens as a form (the Rules page); given for sheets only. */
  formHref?: string;
  /** Panels beside the text for this kind of document (the policy panels), supplied by the app layer. */
  renderAside?: (context: EditorAsideContext) => ReactNode;
  /** The view a conflicting save opens (the three-way merge), supplied by the app layer. */
  renderConflict?: (context: ConflictContext) => ReactNode;
}

export function EditorPage({ id, canSave, backHref, formHref, renderAside, renderConflict }: EditorPageProps) {
  const running = useRunningDocument(id);
  const kind = documentKindOf(id);
  const linted = kind === 'sheet' || kind === 'colang';
  const catalogue = useLintCatalogue();
  return (
    <div className="stack">
      <p className="editor-back">
        <a href={backHref}>← Back to the document</a>
        {formHref !== undefined && (
          <>
            {' · '}
            <a href={formHref}>Edit as a form</a>
          </>
        )}
      </p>
      {running.isPending && <Loading label="Loading the running version" />}
      {running.isError && <ErrorNotice error={running.error} />}
      {running.isSuccess && (!linted || !catalogue.isPending) && (
        <DocumentEditor
          key={id}
          opened={running.data}
          catalogue={linted ? (catalogue.data ?? undefined) : undefined}
          canSave={canSave}
          renderAside={renderAside}
          renderConflict={renderConflict}
        />
      )}
    </div>
  );
}
