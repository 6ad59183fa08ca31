// One approval request: agent, tool, amount, the rule that held it, the signed arguments, expiry and decision.
import { canDecide } from '../api/can-decide.ts';
import type { Approval, Viewer } from '../api/types.ts';
import { Countdown } from './countdown.tsx';
import { DecideForm } from './decide-form.tsx';

export function ApprovalCard({ approval, viewer, onDecided }: { approval: Approval; viewer: Viewer; onDecided: (a: Approval) => void }) {
  const amount = approval.amount === null ? 'no amount' : `${approval.amount} ${approval.currency ?? ''}`.trim();
  return (
    <li className="approval" aria-label={`${approval.agent} ${approval.tool} ${amount}`}>
      <div className="approval-head">
        <strong>{approval.agent}</strong>
        <code>{approval.tool}</code>
        <span className="approval-amount">{amount}</span>
        {approval.status === 'pending' ? (
          <Countdown expiresAt={approval.expires_at} />
        ) : (
          <span className={`badge badge-${approval.status}`}>{approval.status}</span>
        )}
      </div>
      <p className="approval-rule">
        Held by <code>{approval.rule ?? 'the policy'}</code> of {approval.policy_document} v{approval.policy_sequence}
        {approval.description && <span className="muted"> · {approval.description}</span>}
      </p>
      <p className="muted approval-approvers">
        {approval.approvers.length === 1 ? '1 eligible approver' : `${approval.approvers.length} eligible approvers`}
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
      {approval.status !== 'pending' && approval.decided_at && (
        <p className="muted">
          Decided {new Date(approval.decided_at).toLocaleString()}
          {approval.reason && ` · ${approval.reason}`}
        </p>
      )}
      {canDecide(viewer, approval) && <DecideForm id={approval.id} onDecided={onDecided} />}
    </li>
  );
}
