// The selected document: its running text, links to edit it (a sheet also as a form) and to compare its versions,
// a catalogue's tools with their authorized bindings, and its history.
import { ErrorNotice, Loading } from '../../../components/query-state.tsx';
import { ScrollPane } from '../../../components/scroll-pane.tsx';
import { useDocument } from '../api/get-document.ts';
import { CatalogueTools } from './catalogue-tools.tsx';
import { HistoryList } from './history-list.tsx';

interface DocumentDetailProps {
  id: string;
  editHref: string;
  historyHref: string;
  /** The Rules page, offered for rule sheets only. */
  rulesHref: string;
  /** Whether the member may authorize a catalogue's tools (owners and admins). */
  canAuthorize: boolean;
}

export function DocumentDetail({ id, editHref, historyHref, rulesHref, canAuthorize }: DocumentDetailProps) {
  const document = useDocument(id);
  return (
    <div className="stack">
      <section className="panel" aria-labelledby="document-heading">
        <div className="panel-head">
          <h2 id="document-heading" className="document-title">
            {id}
          </h2>
          <div className="actions">
            <a className="button" href={historyHref}>
              History and diffs
            </a>
            {document.data?.kind === 'sheet' && (
              <a className="button" href={rulesHref}>
                Rules form
              </a>
            )}
            <a className="button" href={editHref}>
              Edit
            </a>
          </div>
        </div>
        {document.isPending && <Loading label="Loading the running version" />}
        {document.isError && <ErrorNotice error={document.error} />}
        {document.isSuccess && (
          <>
            <p className="muted">Running version {document.data.version.sequence}</p>
            {/* The pane inside carries the name "Running text", once. */}
            <figure className="code-figure">
              <ScrollPane label="Running text" className="document-text">
                {document.data.text}
              </ScrollPane>
            </figure>
          </>
        )}
      </section>
      {document.data?.kind === 'catalogue' && (
        <section className="panel" aria-labelledby="tools-heading">
          <h2 id="tools-heading" className="panel-title">
            Tools and their bindings
          </h2>
          <CatalogueTools id={id} canAuthorize={canAuthorize} />
        </section>
      )}
      <section className="panel" aria-labelledby="history-heading">
        <h2 id="history-heading" className="panel-title">
          History
        </h2>
        <HistoryList id={id} />
      </section>
    </div>
  );
}
