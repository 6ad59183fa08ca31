// One document in the tree: its path, status, running version and problem count.
import type { DocumentSummary } from '../api/types.ts';

const STATUS_LABELS: Record<DocumentSummary['status'], string> = {
  running: 'running',
  newer_rejected: 'newer rejected',
  newer_not_running: 'newer not running',
  rejected_only: 'rejected',
  not_loaded: 'not loaded',
  not_running: 'draft, not running',
};

export function DocumentRow({
  document,
  selected,
  onSelect,
}: {
  document: DocumentSummary;
  selected: boolean;
  onSelect: (id: string) => void;
}) {
  const problems = document.problems.length;
  return (
    <li className={selected ? 'tree-item tree-item-selected' : 'tree-item'}>
      <button type="button" className="tree-button" aria-current={selected ? 'true' : undefined} onClick={() => onSelect(document.id)}>
        <span className="tree-path">{document.id}</span>
        <span className="tree-meta">
          <span className={`badge badge-${document.status}`}>{STATUS_LABELS[document.status]}</span>
          <span>{document.running_sequence === null ? 'no running version' : `v${document.running_sequence}`}</span>
          <span className={problems > 0 ? 'problem-count problem-count-some' : 'problem-count'}>
            {problems === 1 ? '1 problem' : `${problems} problems`}
          </span>
        </span>
      </button>
    </li>
  );
}
