// The editor page: loads the running version (and the catalogue sheets lint against), then opens it.
import { documentKindOf } from '@tollgate/engine';
import { ErrorNotice, Loading } from '../../../components/query-state.tsx';
import { useLintCatalogue } from '../api/get-lint-catalogue.ts';
import { useRunningDocument } from '../api/get-running-document.ts';
import { DocumentEditor } from './document-editor.tsx';

export function EditorPage({ id, canSave, backHref }: { id: string; canSave: boolean; backHref: string }) {
  const running = useRunningDocument(id);
  const kind = documentKindOf(id);
  const linted = kind === 'sheet' || kind === 'colang';
  const catalogue = useLintCatalogue();
  return (
    <div className="stack">
      <p className="editor-back">
        <a href={backHref}>← Back to the document</a>
      </p>
      {running.isPending && <Loading label="Loading the running version" />}
      {running.isError && <ErrorNotice error={running.error} />}
      {running.isSuccess && (!linted || !catalogue.isPending) && (
        <DocumentEditor key={id} opened={running.data} catalogue={linted ? (catalogue.data ?? undefined) : undefined} canSave={canSave} />
      )}
    </div>
  );
}
