// One line: the kind, the problem count and, for a valid policy, its revision badge.
import type { DocumentCheck } from '../check-document.ts';

export function CheckSummary({ check }: { check: DocumentCheck }) {
  const failing = check.problems.some((p) => p.severity === 'error');
  return (
    <p className={`status ${failing ? 'status-invalid' : 'status-valid'}`} role="status">
      <span className="status-dot" aria-hidden="true" />
      {check.kind ?? 'unknown kind'} · {check.summary}
      {check.revision !== undefined && <span className="badge badge-revision">revision {check.revision}</span>}
    </p>
  );
}
