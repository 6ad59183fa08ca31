// The requests of one tab as an accessible list: pending ones, or every decided or expired one.
import { Empty, ErrorNotice, Loading } from '../../../components/query-state.tsx';
import { useApprovals } from '../api/get-approvals.ts';
import type { Approval, Viewer } from '../api/types.ts';
import { ApprovalCard } from './approval-card.tsx';

export function ApprovalList({ tab, viewer, onDecided }: { tab: 'pending' | 'decided'; viewer: Viewer; onDecided: (a: Approval) => void }) {
  const approvals = useApprovals(tab === 'pending' ? 'pending' : undefined);
  if (approvals.isPending) return <Loading label="Loading requests" />;
  if (approvals.isError) return <ErrorNotice error={approvals.error} />;
  const shown = tab === 'pending' ? approvals.data : approvals.data.filter((a) => a.status !== 'pending');
  if (shown.length === 0)
    return <Empty>{tab === 'pending' ? 'Nothing is waiting for a decision.' : 'No request has been decided yet.'}</Empty>;
  return (
    // biome-ignore lint/a11y/noRedundantRoles: list-style none drops the implicit role in some browsers
    <ul role="list" aria-label={tab === 'pending' ? 'Pending requests' : 'Decided requests'} className="approvals">
      {shown.map((approval) => (
        <ApprovalCard key={approval.id} approval={approval} viewer={viewer} onDecided={onDecided} />
      ))}
    </ul>
  );
}
