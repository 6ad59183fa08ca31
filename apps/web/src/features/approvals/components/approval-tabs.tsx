// The Pending and Decided tabs of the inbox (components/tab-list.tsx: the WAI-ARIA tabs pattern).
import { type Tab, TabList, tabElementId } from '../../../components/tab-list.tsx';

export type ApprovalsTab = 'pending' | 'decided';

const TABS: Tab<ApprovalsTab>[] = [
  { id: 'pending', label: 'Pending' },
  { id: 'decided', label: 'Decided' },
];

export const PANEL_ID = 'approvals-panel';
/** The id of a tab's element, for the panel's aria-labelledby. */
export const approvalsTabId = (tab: ApprovalsTab) => tabElementId('approvals', tab);

export function ApprovalTabs({ tab, onTab }: { tab: ApprovalsTab; onTab: (tab: ApprovalsTab) => void }) {
  return <TabList label="Approval requests" idPrefix="approvals" panelId={PANEL_ID} tabs={TABS} tab={tab} onTab={onTab} />;
}
