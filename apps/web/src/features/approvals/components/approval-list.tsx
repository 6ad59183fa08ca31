// The requests of one tab as an accessible list: pending ones, or the newest decided or expired ones. After a
// decision, focus moves to the next card (or the one before), or to the empty message when none is left
// (card-focus.ts).
import { useRef } from 'react';
import { ErrorNotice, Loading } from '../../../components/query-state.tsx';
import { useApprovals } from '../api/get-approvals.ts';
import type { Approval, Viewer } from '../api/types.ts';
import { ApprovalCard } from './approval-card.tsx';
import { useCardFocus } from './card-focus.ts';

/** The most requests a tab shows: every pending one an approver can work through, the recent decided ones. */
const SHOWN = { pending: 500, decided: 100 } as const;

export function ApprovalList({ tab, viewer, onDecided }: { tab: 'pending' | 'decided'; viewer: Viewer; onDecided: (a: Approval) => void }) {
  const page = useApprovals(tab, SHOWN[tab]);
  const empty = useRef<HTMLParagraphElement>(null);
  const focus = useCardFocus(
    page.data?.approvals.map((a) => a.id),
    empty,
  );

  if (page.isPending) return <Loading label="Loading requests" />;
  if (page.isError) return <ErrorNotice error={page.error} />;
  const { hasMore } = page.data;
  const list = page.data.approvals;
  if (list.length === 0)
    return (
      <p className="state state-empty" tabIndex={-1} ref={empty}>
        {tab === 'pending' ? 'Nothing is waiting for a decision.' : 'No request has been decided yet.'}
      </p>
    );
  const label = tab === 'pending' ? 'Pending requests' : 'Decided requests';
  const decided = (approval: Approval) => {
    onDecided(approval);
    focus.decided(approval.id);
  };
  return (
    <>
      {/* biome-ignore lint/a11y/noRedundantRoles: list-style none drops the implicit role in some browsers */}
      <ul role="list" aria-label={label} className="approvals" onFocus={(event) => focus.onFocusIn(event.target)}>
        {list.map((approval) => (
          <ApprovalCard
            key={approval.id}
            approval={approval}
            viewer={viewer}
            onDecided={decided}
            cardRef={(element) => {
              if (element) focus.cards.current.set(approval.id, element);
              else focus.cards.current.delete(approval.id);
            }}
          />
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
