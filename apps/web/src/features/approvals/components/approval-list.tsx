// The requests of one tab as an accessible list: pending ones, or the newest decided or expired ones.
import { Empty, ErrorNotice, Loading } from '../../../components/query-state.tsx';
import { useApprovals } from '../api/get-approvals.ts';
import type { Approval, Viewer } from '../api/types.ts';
import { ApprovalCard } from './approval-card.tsx';

/** The most requests a tab shows: every pending one an approver can work through, the recent decided ones. */
const SHOWN = { pending: 500, decided: 100 } as const;

export function ApprovalList({ tab, viewer, onDecided }: { tab: 'pending' | 'decided'; viewer: Viewer; onDecided: (a: Approval) => void }) {
  const page = useApprovals(tab, SHOWN[tab]);
  if (page.isPending) return <Loading label="Loading requests" />;
  if (page.isError) return <ErrorNotice error={page.error} />;
  const { approvals, hasMore } = page.data;
  if (approvals.length === 0)
    return <Empty>{tab === 'pending' ? 'Nothing is waiting for a decision.' : 'No request has been decided yet.'}</Empty>;
  return (
    <>
      {/* biome-ignore lint/a11y/noRedundantRoles: list-style none drops the implicit role in some browsers */}
      <ul role="list" aria-label={tab === 'pending' ? 'Pending requests' : 'Decided requests'} className="approvals">
        {approvals.map((approval) => (
          <ApprovalCard key={approval.id} approval={approval} viewer={viewer} onDecided={onDecided} />
        ))}
      </ul>
      {hasMore && (
        <p className="muted">
          {tab === 'pending'
            ? `The newest ${SHOWN.pending} pending requests are shown; older ones follow as these are decided.`
            : `The newest ${SHOWN.decided} decided requests are shown; the API lists older ones (GET /v1/approvals?status=decided).`}
        </p>
      )}
    </>
  );
}
