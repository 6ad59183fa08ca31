// Approve or deny with an optional reason; the API signs the decision.
import { useState } from 'react';
import { useDecideApproval } from '../api/decide-approval.ts';
import type { Approval } from '../api/types.ts';

export function DecideForm({ id, onDecided }: { id: string; onDecided: (a: Approval) => void }) {
  const [reason, setReason] = useState('');
  const decide = useDecideApproval(onDecided);
  return (
    <div className="decide">
      <label className="field">
        <span>Reason (optional)</span>
        <input value={reason} onChange={(event) => setReason(event.target.value)} maxLength={2000} />
      </label>
      <div className="decide-buttons">
        <button
          type="button"
          className="button button-primary"
          disabled={decide.isPending}
          onClick={() => decide.mutate({ id, verb: 'approve', reason })}
        >
          Approve
        </button>
        <button
          type="button"
          className="button button-danger"
          disabled={decide.isPending}
          onClick={() => decide.mutate({ id, verb: 'deny', reason })}
        >
          Deny
        </button>
      </div>
      {decide.isError && (
        <p className="state state-error" role="alert">
          {decide.error.message}
        </p>
      )}
    </div>
  );
}
