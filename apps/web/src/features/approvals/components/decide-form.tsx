// Approve or deny with an optional reason, signed with one of the member's passkeys when they have any, else by
// the API with their custodial key (api/decide-approval.ts). While it is sent the buttons are
// marked disabled (aria-disabled) rather than made so: a disabled button loses the focus to the page's body,
// and a keyboard user would lose their place until the answer moves it to the next card (card-focus.ts).
import { useState } from 'react';
import { ApiError } from '../../../lib/api/api-error.ts';
import { useDecideApproval } from '../api/decide-approval.ts';
import type { Approval } from '../api/types.ts';

export function DecideForm({ id, onDecided }: { id: string; onDecided: (a: Approval) => void }) {
  const [reason, setReason] = useState('');
  const decide = useDecideApproval(onDecided);
  const send = (verb: 'approve' | 'deny') => {
    if (!decide.isPending) decide.mutate({ id, verb, reason });
  };
  return (
    <div className="decide">
      <label className="field">
        <span>Reason (optional)</span>
        <input value={reason} onChange={(event) => setReason(event.target.value)} maxLength={2000} />
      </label>
      <div className="decide-buttons">
        <button type="button" className="button button-primary" aria-disabled={decide.isPending} onClick={() => send('approve')}>
          Approve
        </button>
        <button type="button" className="button button-danger" aria-disabled={decide.isPending} onClick={() => send('deny')}>
          Deny
        </button>
      </div>
      {decide.isError && (
        <p className="state state-error" role="alert">
          {decide.error instanceof ApiError ? `${decide.error.message} (${decide.error.code})` : decide.error.message}
        </p>
      )}
    </div>
  );
}
