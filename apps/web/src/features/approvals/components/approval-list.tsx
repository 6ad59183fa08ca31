// The inbox of one tab (docs/console.md, "Approvals inbox"): a compact list of held calls, one line each, filtered
// as the address's query says, and a pane with the selected call in full; driven by the keyboard as well (j/k, a,
// d, r, /, ?), each decision announced in words. The receipt of the last decision shows above the pane.
import { type ReactNode, useRef, useState } from 'react';
import { ErrorNotice, Loading } from '../../../components/query-state.tsx';
import { useNow } from '../../../hooks/use-now.ts';
import { canDecide, whyCannotDecide } from '../api/can-decide.ts';
import { useApprovals } from '../api/get-approvals.ts';
import type { Approval, Viewer } from '../api/types.ts';
import { HeldCallPane } from '../inbox/held-call-pane.tsx';
import { callWords } from '../inbox/hold-words.ts';
import { type InboxFilter, isFiltered, matchesFilter } from '../inbox/inbox-filter.ts';
import { InboxFilters } from '../inbox/inbox-filters.tsx';
import type { InboxCommand } from '../inbox/inbox-keys.ts';
import { InboxRow } from '../inbox/inbox-row.tsx';
import { InboxShortcuts } from '../inbox/inbox-shortcuts.tsx';
import { useInboxKeys } from '../inbox/use-inbox-keys.ts';
import { useInboxSelection } from '../inbox/use-inbox-selection.ts';
import type { DecideVerb } from './decide-form.tsx';

/** The most requests a tab shows: every pending one an approver can work through, the recent decided ones. */
const SHOWN = { pending: 500, decided: 100 } as const;

export function ApprovalList({
  tab,
  viewer,
  filter,
  onFilter,
  onDecided,
  receipt,
}: {
  tab: 'pending' | 'decided';
  viewer: Viewer;
  filter: InboxFilter;
  onFilter: (filter: InboxFilter) => void;
  onDecided: (a: Approval) => void;
  /** The receipt's live region, shown above the pane. */
  receipt: ReactNode;
}) {
  const page = useApprovals(tab, SHOWN[tab]);
  const now = useNow(5000);
  // Calls decided here leave the list at the answer, before the live list drops them.
  const [gone, setGone] = useState<ReadonlySet<string>>(new Set());
  const [announced, setAnnounced] = useState('');
  const [help, setHelp] = useState(false);
  const list = useRef<HTMLUListElement>(null);
  const empty = useRef<HTMLParagraphElement>(null);
  const search = useRef<HTMLInputElement>(null);
  const reason = useRef<HTMLInputElement>(null);
  const command = useRef<((verb: DecideVerb) => void) | null>(null);

  const all = page.data?.approvals ?? [];
  const shown = all.filter((a) => !(tab === 'pending' && gone.has(a.id)) && matchesFilter(a, filter, now));
  const ids = shown.map((a) => a.id);
  // The focus follows the selection from the list or the pane, never from the filters or the receipt.
  const inListOrPane = () => {
    const active = document.activeElement;
    return active !== null && (list.current?.contains(active) === true || active.closest('.inbox-detail') !== null);
  };
  const selection = useInboxSelection(ids, inListOrPane, empty);
  const current = shown.find((a) => a.id === selection.selected) ?? null;

  const decided = (approval: Approval) => {
    setAnnounced(`${approval.status === 'denied' ? 'Denied' : 'Approved'} ${callWords(approval)}`);
    setGone((before) => new Set(before).add(approval.id));
    onDecided(approval);
  };
  const run = (which: InboxCommand) => {
    if (which === 'next' || which === 'previous') selection.move(which === 'next' ? 1 : -1);
    else if (which === 'filter') search.current?.focus();
    else if (which === 'help') setHelp((shownBefore) => !shownBefore);
    else if (current === null) setAnnounced('No call is selected.');
    else if (!canDecide(viewer, current))
      setAnnounced(whyCannotDecide(viewer, current) ?? `${callWords(current)} is already ${current.status}.`);
    else if (which === 'reason') reason.current?.focus();
    else command.current?.(which === 'approve' ? 'approve' : 'deny');
  };
  useInboxKeys({
    run,
    escapeFrom: () => [search.current, reason.current],
    list: () => list.current,
    backToList: selection.focusSelected,
  });

  if (page.isPending) return <Loading label="Loading requests" />;
  if (page.isError) return <ErrorNotice error={page.error} />;
  const label = tab === 'pending' ? 'Pending requests' : 'Decided requests';
  return (
    <div className="inbox">
      <InboxFilters filter={filter} onFilter={onFilter} approvals={all} searchRef={search} />
      <InboxShortcuts shown={help} onToggle={() => setHelp((shownBefore) => !shownBefore)} />
      {/* What the shortcuts did, in words, for screen readers and eyes alike. */}
      <p className="inbox-announce" role="status" aria-live="polite" aria-label="Inbox announcements">
        {announced}
      </p>
      <div className="inbox-columns">
        <div className="inbox-list-column">
          {shown.length === 0 ? (
            <p className="state state-empty" tabIndex={-1} ref={empty}>
              {isFiltered(filter) && all.length > 0
                ? 'No request matches the filters.'
                : tab === 'pending'
                  ? 'Nothing is waiting for a decision.'
                  : 'No request has been decided yet.'}
            </p>
          ) : (
            // biome-ignore lint/a11y/noRedundantRoles: list-style none drops the implicit role in some browsers
            <ul role="list" aria-label={label} className="inbox-list" ref={list}>
              {shown.map((approval) => (
                <InboxRow
                  key={approval.id}
                  approval={approval}
                  selected={approval.id === selection.selected}
                  now={now}
                  onSelect={() => selection.select(approval.id)}
                  rowRef={(element) => {
                    if (element) selection.rows.current.set(approval.id, element);
                    else selection.rows.current.delete(approval.id);
                  }}
                />
              ))}
            </ul>
          )}
          {page.data.hasMore && (
            <p className="muted">
              {tab === 'pending'
                ? `The newest ${SHOWN.pending} pending requests are shown; older ones follow as these are decided.`
                : `The newest ${SHOWN.decided} decided requests are shown; the API lists older ones (GET /v1/approvals?status=decided).`}
            </p>
          )}
        </div>
        <div className="inbox-detail-column">
          {receipt}
          {current !== null && (
            <HeldCallPane approval={current} viewer={viewer} onDecided={decided} commandRef={command} reasonRef={reason} />
          )}
        </div>
      </div>
    </div>
  );
}
