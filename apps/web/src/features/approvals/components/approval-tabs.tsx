// The Pending and Decided tabs, keyboard-operable as the WAI-ARIA tabs pattern: one tab in the Tab order
// (roving tabindex), Left/Right move between them (wrapping), Home/End go to the first and last; selection
// follows focus.
import { type KeyboardEvent, useRef } from 'react';

export type ApprovalsTab = 'pending' | 'decided';

const TABS: { id: ApprovalsTab; label: string }[] = [
  { id: 'pending', label: 'Pending' },
  { id: 'decided', label: 'Decided' },
];

/** The id of a tab's element, for the panel's aria-labelledby. */
export const tabElementId = (tab: ApprovalsTab) => `approvals-tab-${tab}`;
export const PANEL_ID = 'approvals-panel';

/** The tab a key moves to from `index`, or null for any other key. Example: `tabAfterKey('End', 0)` is 1. */
export function tabAfterKey(key: string, index: number): number | null {
  const last = TABS.length - 1;
  if (key === 'ArrowRight') return index === last ? 0 : index + 1;
  if (key === 'ArrowLeft') return index === 0 ? last : index - 1;
  if (key === 'Home') return 0;
  if (key === 'End') return last;
  return null;
}

export function ApprovalTabs({ tab, onTab }: { tab: ApprovalsTab; onTab: (tab: ApprovalsTab) => void }) {
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const next = tabAfterKey(
      event.key,
      TABS.findIndex((t) => t.id === tab),
    );
    const target = next === null ? undefined : TABS[next];
    if (next === null || target === undefined) return;
    event.preventDefault();
    onTab(target.id);
    buttons.current[next]?.focus();
  };
  return (
    <div role="tablist" aria-label="Approval requests" className="tabs" onKeyDown={onKeyDown}>
      {TABS.map((t, i) => (
        <button
          key={t.id}
          ref={(element) => {
            buttons.current[i] = element;
          }}
          type="button"
          role="tab"
          id={tabElementId(t.id)}
          aria-selected={t.id === tab}
          aria-controls={PANEL_ID}
          tabIndex={t.id === tab ? 0 : -1}
          className={t.id === tab ? 'tab tab-selected' : 'tab'}
          onClick={() => onTab(t.id)}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}
