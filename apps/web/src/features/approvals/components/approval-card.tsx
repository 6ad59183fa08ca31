// One approval request: agent, tool (marked MCP when it came through the MCP gateway), amount, when it was held
// and its call id, the rule that held it, who may approve it by name, the signed arguments, expiry, and the
// decision: who, what and when.
import { ViaBadge } from '../../../components/via-badge.tsx';
import { canDecide, namesOf, whyCannotDecide } from '../api/can-decide.ts';
import type { Approval, Viewer } from '../api/types.ts';
import { Countdown } from './countdown.tsx';
import { DecideForm } from './decide-form.tsx';
import { Timestamp } from './timestamp.tsx';

export function ApprovalCard({
  approval,
  viewer,
  onDecided,
  cardRef,
}: {
  approval: Approval;
  viewer: Viewer;
  onDecided: (a: Approval) => void;
  /** Receives the card's element, so the list can move focus to it after a decision. */
  cardRef?: (element: HTMLLIElement | null) => void;
}) {
  const amount = approval.amount === null ? 'no amount' : `${approval.amount} ${approval.currency ?? ''}`.trim();
  const why = whyCannotDecide(viewer, approval);
  return (
    <li
      className="approval"
      aria-label={`${approval.agent} ${approval.tool} ${amount}`}
      tabIndex={-1}
      ref={cardRef}
      data-approval={approval.id}
    >
      <div className="approval-head">
        <strong>{approval.agent}</strong>
        <code>{approval.tool}</code>
        <ViaBadge via={approval.via} />
        <span className="approval-amount">{amount}</span>
        {approval.status === 'pending' ? (
          <Countdown expiresAt={approval.expires_at} />
        ) : (
          <span className={`badge badge-${approval.status}`}>{approval.status}</span>
        )}
      </div>
      <dl className="approval-facts">
        <div>
          <dt>Held at</dt>
          <dd>
            <Timestamp iso={approval.held_at} />
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
      <p className="approval-rule">
        Held by <code>{approval.rule ?? 'the policy'}</code> of {approval.policy_document} v{approval.policy_sequence}
        {approval.description && <span className="muted"> · {approval.description}</span>}
      </p>
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
      {canDecide(viewer, approval) && <DecideForm id={approval.id} onDecided={onDecided} />}
    </li>
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
        <dt>Decided at</dt>
        <dd>
          <Timestamp iso={decidedAt} />
        </dd>
      </div>
    </>
  );
}
