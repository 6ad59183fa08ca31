// A lifecycle status as a badge: draft, test, active, disabled or archived.
import type { RuleStatus } from '../api/types.ts';

export function StatusBadge({ status }: { status: RuleStatus }) {
  return <span className={`badge badge-status-${status}`}>{status}</span>;
}
