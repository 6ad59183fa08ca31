// The views of an agent or a policy on the documents page: its running text, or its decision map
// (components/tab-list.tsx: the WAI-ARIA tabs pattern).
import { type Tab, TabList, tabElementId } from '../../../components/tab-list.tsx';

export type DocumentView = 'text' | 'map';

const VIEWS: Tab<DocumentView>[] = [
  { id: 'text', label: 'Running text' },
  { id: 'map', label: 'Decision map' },
];

export const DOCUMENT_VIEW_PANEL_ID = 'document-view-panel';
/** The id of a view's tab, for the panel's aria-labelledby. */
export const documentViewTabId = (view: DocumentView) => tabElementId('document-view', view);

export function DocumentTabs({ id, view, onView }: { id: string; view: DocumentView; onView: (view: DocumentView) => void }) {
  return (
    <TabList label={`Views of ${id}`} idPrefix="document-view" panelId={DOCUMENT_VIEW_PANEL_ID} tabs={VIEWS} tab={view} onTab={onView} />
  );
}
