// The Rules page (#/rules/<id>): the rules-form feature's workbench, given the running sheet, the catalogue
// and the editor's save form here, in the app layer, because features never import each other.
import { DraftNotice, DraftOffer } from '../components/draft-offer.tsx';
import { ErrorNotice, Loading } from '../components/query-state.tsx';
import { useLintCatalogue } from '../features/editor/api/get-lint-catalogue.ts';
import { useRunningDocument } from '../features/editor/api/get-running-document.ts';
import { SaveForm } from '../features/editor/components/save-form.tsx';
import { SaveOutcome } from '../features/editor/components/save-outcome.tsx';
import { useDocumentSave } from '../features/editor/use-document-save.ts';
import { RulesWorkbench, type SaveContext } from '../features/rules-form/components/rules-workbench.tsx';

interface RulesPageProps {
  id: string;
  canSave: boolean;
  backHref: string;
  editHref: string;
}

export function RulesPage({ id, canSave, backHref, editHref }: RulesPageProps) {
  const running = useRunningDocument(id);
  const catalogue = useLintCatalogue();
  return (
    <div className="stack">
      <p className="editor-back">
        <a href={backHref}>← Back to the document</a> · <a href={editHref}>Open in the editor</a>
      </p>
      {(running.isPending || catalogue.isPending) && <Loading label="Loading the sheet and the catalogue" />}
      {running.isError && <ErrorNotice error={running.error} />}
      {catalogue.isError && <ErrorNotice error={catalogue.error} />}
      {running.isSuccess && !catalogue.isPending && (
        <RulesWorkbench
          key={id}
          id={id}
          initialText={running.data.text}
          catalogue={catalogue.data ?? undefined}
          renderSave={(context) => (
            <SheetSave
              id={id}
              canSave={canSave}
              opened={{ version: running.data.version.sequence, text: running.data.text }}
              context={context}
            />
          )}
        />
      )}
    </div>
  );
}

interface SheetSaveProps {
  id: string;
  canSave: boolean;
  opened: { version: number; text: string };
  context: SaveContext;
}

/** Saving the sheet through the edit seam, as the editor does: a reason, the outcome, a reload on a conflict, drafts. */
function SheetSave({ id, canSave, opened, context }: SheetSaveProps) {
  const { reason, setReason, basedOn, reasonInput, edit, reloadError, save, reload, draft, restoreDraft } = useDocumentSave({
    id,
    canSave,
    initialBase: opened.version,
    initialText: opened.text,
    text: context.text,
    replaceText: context.replaceText,
  });
  if (!canSave) return <p className="muted">Your role can read this sheet but not save edits.</p>;
  return (
    <>
      {draft.offer !== null && (
        <DraftOffer draft={draft.offer} opened={opened} language="yaml" onRestore={restoreDraft} onDiscard={draft.discard} />
      )}
      <DraftNotice kept={draft.kept} />
      <SaveForm reason={reason} onReason={setReason} onSave={save} saving={edit.isPending} basedOn={basedOn} reasonRef={reasonInput} />
      {edit.isError && <ErrorNotice error={edit.error} />}
      {reloadError !== null && <ErrorNotice error={reloadError} />}
      {edit.data !== undefined && <SaveOutcome outcome={edit.data} onReload={reload} />}
    </>
  );
}
