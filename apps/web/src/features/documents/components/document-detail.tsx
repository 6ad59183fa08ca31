// The selected document: its running text, links to edit it (a sheet also as a form) and to compare its versions,
// an agent's or a policy's decision map, a catalogue's tools with their authorized bindings, and its history.
import { useState } from 'react';
import { ErrorNotice, Loading } from '../../../components/query-state.tsx';
import { ScrollPane } from '../../../components/scroll-pane.tsx';
import { useDocument } from '../api/get-document.ts';
import { CatalogueTools } from './catalogue-tools.tsx';
import { DecisionMapTab } from './decision-map-tab.tsx';
import { DOCUMENT_VIEW_PANEL_ID, DocumentTabs, type DocumentView, documentViewTabId } from './document-tabs.tsx';
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

/** The panel of the shown view, named by its tab. */
const tabPanel = (view: DocumentView) => ({ role: 'tabpanel', id: DOCUMENT_VIEW_PANEL_ID, 'aria-labelledby': documentViewTabId(view) });

export function DocumentDetail({ id, editHref, historyHref, rulesHref, canAuthorize }: DocumentDetailProps) {
  const document = useDocument(id);
  const [view, setView] = useState<DocumentView>('text');
  const kind = document.data?.kind;
  // Agents and policies decide calls: they offer their decision map beside their text.
  const mapped = kind === 'agent' || kind === 'policy' ? kind : null;
  const shown = mapped === null ? 'text' : view;
  return (
    <div className="stack">
      <section className="panel" aria-labelledby="document-heading">
        <div className="panel-head">
          {/* The page's h1 names the document; this panel is its running version. */}
          <h2 id="document-heading" className="panel-title">
            Running version
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
        {mapped !== null && <DocumentTabs id={id} view={shown} onView={setView} />}
        {document.isSuccess && shown === 'text' && (
          <div {...(mapped === null ? {} : tabPanel('text'))}>
            <p className="muted">Version {document.data.version.sequence}</p>
            <figure className="code-figure">
              <ScrollPane label="Running text" className="document-text">
                {document.data.text}
              </ScrollPane>
            </figure>
          </div>
        )}
        {mapped !== null && shown === 'map' && (
          <div {...tabPanel('map')}>
            <DecisionMapTab id={id} kind={mapped} />
          </div>
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
