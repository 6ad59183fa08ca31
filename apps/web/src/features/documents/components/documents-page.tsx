// The documents page: the store as a tree by kind beside the selected document's text and history. Beside a
// document the tree is narrower and can be hidden (remembered in this browser), so wide content gets the width.
import { PageHeading } from '../../../components/page-heading.tsx';
import { useStoredFlag } from '../../../hooks/use-stored-flag.ts';
import { documentKindWords } from '../../../lib/document-kind-words.ts';
import { DocumentDetail } from './document-detail.tsx';
import { DocumentTree } from './document-tree.tsx';

/** Where the tree's shown-or-hidden state is kept (docs/console.md, "Page headings and the documents tree"). */
export const TREE_OPEN_KEY = 'tollgate.documents.tree-open';

const TREE_REGION_ID = 'document-tree-region';

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
  const [treeOpen, setTreeOpen] = useStoredFlag(TREE_OPEN_KEY, true);
  // With nothing picked the tree is the page: it is always shown.
  const open = selected === null || treeOpen;
  const layout = selected === null ? 'split' : open ? 'documents-layout' : 'documents-layout documents-layout-tree-hidden';
  return (
    <div className="stack">
      <PageHeading
        id="documents-heading"
        title={selected === null ? 'Documents' : documentKindWords(selected)}
        subject={selected ?? undefined}
      />
      <div className={layout}>
        <section className="panel documents-tree-panel" aria-labelledby="tree-heading">
          {/* Beside a document the heading is the tree's disclosure button (its name stays, aria-expanded says the state). */}
          <h2 id="tree-heading" className="panel-title tree-heading">
            {selected === null ? (
              'All documents'
            ) : (
              <button
                type="button"
                className="tree-toggle"
                aria-expanded={open}
                aria-controls={TREE_REGION_ID}
                onClick={() => setTreeOpen(!open)}
              >
                <span className="tree-toggle-mark" aria-hidden="true" />
                All documents
              </button>
            )}
          </h2>
          <div id={TREE_REGION_ID} hidden={!open}>
            <DocumentTree selected={selected} onSelect={onSelect} />
          </div>
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
    </div>
  );
}
