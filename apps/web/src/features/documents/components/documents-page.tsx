// The documents page: the store as a tree by kind beside the selected document's text and history.
import { DocumentDetail } from './document-detail.tsx';
import { DocumentTree } from './document-tree.tsx';

interface DocumentsPageProps {
  selected: string | null;
  onSelect: (id: string) => void;
  /** Where a document opens in the editor. */
  editHref: (id: string) => string;
  /** Where a document's versions are compared. */
  historyHref: (id: string) => string;
  /** Where a rule sheet opens as a form (the Rules page). */
  rulesHref: (id: string) => string;
  /** Whether the member may authorize a catalogue's tools (owners and admins). */
  canAuthorize: boolean;
}

export function DocumentsPage({ selected, onSelect, editHref, historyHref, rulesHref, canAuthorize }: DocumentsPageProps) {
  return (
    <div className="split">
      <section className="panel" aria-labelledby="documents-heading">
        <h1 id="documents-heading" className="panel-title" tabIndex={-1}>
          Documents
        </h1>
        <DocumentTree selected={selected} onSelect={onSelect} />
      </section>
      {selected === null ? (
        <section className="panel">
          <p className="muted">Pick a document to read its running text and history.</p>
        </section>
      ) : (
        <DocumentDetail
          id={selected}
          editHref={editHref(selected)}
          historyHref={historyHref(selected)}
          rulesHref={rulesHref(selected)}
          canAuthorize={canAuthorize}
        />
      )}
    </div>
  );
}
