// The approvals inbox: pending requests live from the event stream, decided ones in a second tab, filtered as the
// address's query says; a decision's receipt appears in a live region, so screen readers announce it
// (docs/console.md, "Approvals inbox").
import { useState } from 'react';
import { PageHeading } from '../../../components/page-heading.tsx';
import type { Approval, Viewer } from '../api/types.ts';
import { useApprovalEvents } from '../api/use-approval-events.ts';
import { useInboxFilter } from '../inbox/use-inbox-filter.ts';
import { ApprovalList } from './approval-list.tsx';
import { type ApprovalsTab, ApprovalTabs, approvalsTabId, PANEL_ID } from './approval-tabs.tsx';
import { DecisionReceipt } from './decision-receipt.tsx';

export function ApprovalsPage({
  memberKey,
  viewer,
  tab,
  onTab,
}: {
  memberKey: string;
  viewer: Viewer;
  tab: ApprovalsTab;
  onTab: (tab: ApprovalsTab) => void;
}) {
  const live = useApprovalEvents(memberKey);
  const [receipt, setReceipt] = useState<Approval | null>(null);
  const [filter, setFilter] = useInboxFilter(tab);
  return (
    <section className="panel" aria-labelledby="approvals-heading">
      <div className="panel-head">
        <PageHeading id="approvals-heading" title="Approvals" />
        <span className={live ? 'live live-on' : 'live'}>{live ? 'Live' : 'Not live, connecting…'}</span>
      </div>
      <ApprovalTabs tab={tab} onTab={onTab} />
      <div role="tabpanel" id={PANEL_ID} aria-labelledby={approvalsTabId(tab)}>
        <ApprovalList
          tab={tab}
          viewer={viewer}
          filter={filter}
          onFilter={setFilter}
          onDecided={setReceipt}
          receipt={
            // Always present, so what appears in it is announced.
            <div role="status" aria-live="polite" aria-label="Decision receipt">
              {receipt && <DecisionReceipt key={receipt.id} approval={receipt} onDismiss={() => setReceipt(null)} />}
            </div>
          }
        />
      </div>
    </section>
  );
}
