// One held call on one line (docs/console.md, "Approvals inbox"): agent, tool (marked MCP), amount, the rule,
// how long it has waited, when it expires (the exact time on hover), and the approvals still needed when more
// than one. The row is a button that selects the call (clicked or focused); only the selected row is in the Tab
// order.
import type { Ref } from 'react';
import { ViaBadge } from '../../../components/via-badge.tsx';
import { absoluteWords } from '../../../lib/relative-time.ts';
import type { Approval } from '../api/types.ts';
import { amountWords, approvalsStillNeeded, spanWords } from './hold-words.ts';

export function InboxRow({
  approval,
  selected,
  now,
  onSelect,
  rowRef,
}: {
  approval: Approval;
  selected: boolean;
  now: number;
  onSelect: () => void;
  rowRef: Ref<HTMLButtonElement>;
}) {
  const needed = approvalsStillNeeded(approval);
  const left = Date.parse(approval.expires_at) - now;
  return (
    <li data-approval={approval.id} data-call={approval.call_id}>
      <button
        type="button"
        ref={rowRef}
        className={selected ? 'inbox-row inbox-row-selected' : 'inbox-row'}
        aria-current={selected ? 'true' : undefined}
        tabIndex={selected ? 0 : -1}
        onClick={onSelect}
        onFocus={onSelect}
      >
        <strong className="inbox-agent">{approval.agent}</strong>
        <code className="inbox-tool">{approval.tool}</code>
        <ViaBadge via={approval.via} />
        <span className="inbox-amount">{amountWords(approval) ?? 'no amount'}</span>
        <span className="inbox-rule">{approval.rule ?? 'the policy'}</span>
        {approval.status === 'pending' ? (
          <>
            <span className="inbox-waiting">waiting {spanWords(now - Date.parse(approval.held_at))}</span>
            <time
              className={left <= 0 ? 'inbox-expires countdown-over' : 'inbox-expires'}
              dateTime={approval.expires_at}
              title={absoluteWords(Date.parse(approval.expires_at))}
            >
              {left <= 0 ? 'expired' : `expires in ${spanWords(left)}`}
            </time>
          </>
        ) : (
          <span className={`badge badge-${approval.status}`}>{approval.status}</span>
        )}
        {needed > 1 && <span className="inbox-needed">needs {needed} approvals</span>}
      </button>
    </li>
  );
}
