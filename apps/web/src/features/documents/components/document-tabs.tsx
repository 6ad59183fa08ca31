// The views of an agent or a policy on the documents page: its running text, or its decision map.

export type DocumentView = 'text' | 'map';

const VIEWS: { view: DocumentView; label: string }[] = [
  { view: 'text', label: 'Running text' },
  { view: 'map', label: 'Decision map' },
];

export function DocumentTabs({ id, view, onView }: { id: string; view: DocumentView; onView: (view: DocumentView) => void }) {
  return (
    <div role="tablist" aria-label={`Views of ${id}`} className="tabs">
      {VIEWS.map((v) => (
        <button
          key={v.view}
          type="button"
          role="tab"
          aria-selected={view === v.view}
          className={view === v.view ? 'tab tab-selected' : 'tab'}
          onClick={() => onView(v.view)}
        >
          {v.label}
        </button>
      ))}
    </div>
  );
}
