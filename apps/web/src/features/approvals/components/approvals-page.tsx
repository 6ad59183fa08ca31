// The approvals inbox: pending requests live from the event stream, decided ones in a second tab.
import { useState } from 'react';
import type { Approval, Viewer } from '../api/types.ts';
import { useApprovalEvents } from '../api/use-approval-events.ts';
import { ApprovalList } from './approval-list.tsx';
import { DecisionReceipt } from './decision-receipt.tsx';

export type ApprovalsTab = 'pending' | 'decided';

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
  return (
    <section className="panel" aria-labelledby="approvals-heading">
      <div className="panel-head">
        <h2 id="approvals-heading" className="panel-title">
          Approvals
        </h2>
        <span className={live ? 'live live-on' : 'live'}>{live ? 'Live' : 'Not live, connecting…'}</span>
      </div>
      <div role="tablist" aria-label="Approval requests" className="tabs">
        <TabButton selected={tab === 'pending'} onClick={() => onTab('pending')} label="Pending" />
        <TabButton selected={tab === 'decided'} onClick={() => onTab('decided')} label="Decided" />
      </div>
      {receipt && <DecisionReceipt approval={receipt} onDismiss={() => setReceipt(null)} />}
      <div role="tabpanel" aria-label={tab === 'pending' ? 'Pending' : 'Decided'}>
        <ApprovalList tab={tab} viewer={viewer} onDecided={setReceipt} />
      </div>
    </section>
  );
}

function TabButton({ selected, onClick, label }: { selected: boolean; onClick: () => void; label: string }) {
  return (
    <button type="button" role="tab" aria-selected={selected} className={selected ? 'tab tab-selected' : 'tab'} onClick={onClick}>
      {label}
    </button>
  );
}
