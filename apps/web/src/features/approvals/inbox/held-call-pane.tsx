// The selected call in full (docs/console.md, "Approvals inbox"): what and when, its call id, why it was held,
// who may approve it by name, the arguments as signed (when shown), why the viewer cannot act when they cannot,
// and Approve and Deny with a reason; on the Decided tab, the decision, who and when.
import type { RefObject } from 'react';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { ViaBadge } from '../../../components/via-badge.tsx';
import { canDecide, namesOf, whyCannotDecide } from '../api/can-decide.ts';
import { useApproval } from '../api/get-approval.ts';
import type { Approval, Viewer } from '../api/types.ts';
import { Countdown } from '../components/countdown.tsx';
import { DecideForm, type DecideVerb } from '../components/decide-form.tsx';
import { HoldExplained } from './hold-explained.tsx';
import { callWords } from './hold-words.ts';

export function HeldCallPane({
  approval,
  viewer,
  onDecided,
  commandRef,
  reasonRef,
}: {
  approval: Approval;
  viewer: Viewer;
  onDecided: (a: Approval) => void;
  commandRef: RefObject<((verb: DecideVerb) => void) | null>;
  reasonRef: RefObject<HTMLInputElement | null>;
}) {
  const read = useApproval(approval.id);
  const why = whyCannotDecide(viewer, approval);
  return (
    <section className="inbox-detail" aria-label="Selected call" data-approval={approval.id}>
      <div className="approval-head">
        <h2 className="inbox-detail-title">{callWords(approval)}</h2>
        <ViaBadge via={approval.via} />
        {approval.status === 'pending' ? (
          <Countdown expiresAt={approval.expires_at} />
        ) : (
          <span className={`badge badge-${approval.status}`}>{approval.status}</span>
        )}
      </div>
      <dl className="approval-facts">
        <div>
          <dt>Held</dt>
          <dd>
            <RelativeTime at={approval.held_at} />
          </dd>
        </div>
        <div>
          <dt>Call</dt>
          <dd>
            <code>{approval.call_id}</code>
          </dd>
        </div>
        {approval.decided_at !== null && <Decided approval={approval} decidedAt={approval.decided_at} />}
      </dl>
      {read.data ? (
        <HoldExplained approval={{ ...read.data, ...approval, explanation: read.data.explanation }} />
      ) : (
        <p className="muted approval-rule">
          Held by <code>{approval.rule ?? 'the policy'}</code> of {approval.policy_document} v{approval.policy_sequence}
          {approval.description && <span> · {approval.description}</span>}
          {read.isError ? ' (why in full could not be read)' : ''}
        </p>
      )}
      <p className="muted approval-approvers">
        {approval.eligible_approvers.length === 0 ? 'No eligible approver' : `Eligible approvers: ${namesOf(approval)}`}
      </p>
      <figure className="code-figure" aria-label="Arguments as signed">
        <pre className="approval-arguments">
          {!approval.arguments_shown
            ? "arguments shown only to this request's approvers, owners and admins"
            : approval.arguments === null
              ? 'arguments no longer kept'
              : JSON.stringify(approval.arguments, null, 2)}
        </pre>
      </figure>
      {why !== null && <p className="approval-why">{why}</p>}
      {canDecide(viewer, approval) && (
        <DecideForm
          key={approval.id}
          id={approval.id}
          actsOn={callWords(approval)}
          onDecided={onDecided}
          commandRef={commandRef}
          reasonRef={reasonRef}
        />
      )}
    </section>
  );
}

function Decided({ approval, decidedAt }: { approval: Approval; decidedAt: string }) {
  return (
    <>
      <div>
        <dt>Decision</dt>
        <dd>
          {approval.status === 'denied' ? 'Denied' : 'Approved'}
          {approval.reason && <span className="muted"> · {approval.reason}</span>}
        </dd>
      </div>
      <div>
        <dt>Decided by</dt>
        <dd>{approval.decided_by_name ?? approval.decided_by}</dd>
      </div>
      <div>
        <dt>Decided</dt>
        <dd>
          <RelativeTime at={decidedAt} />
        </dd>
      </div>
    </>
  );
}
