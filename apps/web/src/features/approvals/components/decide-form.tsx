// Approve or deny with an optional reason, signed with one of the member's passkeys when they have any, else by
// the API with their custodial key (api/decide-approval.ts). The buttons are named for what they act on
// ("Approve issue_refund 205 USD for support-bot"), and the inbox's "a" and "d" send through the same path
// (`commandRef`). While it is sent the buttons are marked disabled (aria-disabled) rather than made so: a
// disabled button loses the focus to the page's body, and a keyboard user would lose their place.
import { type RefObject, useEffect, useState } from 'react';
import { ApiError } from '../../../lib/api/api-error.ts';
import { useDecideApproval } from '../api/decide-approval.ts';
import type { Approval } from '../api/types.ts';

export type DecideVerb = 'approve' | 'deny';

export function DecideForm({
  id,
  actsOn,
  onDecided,
  commandRef,
  reasonRef,
}: {
  id: string;
  /** What the call is, for the buttons' names. Example: `'issue_refund 205 USD for support-bot'`. */
  actsOn: string;
  onDecided: (a: Approval) => void;
  /** Receives the form's send, so a keyboard shortcut decides exactly as the buttons do. */
  commandRef?: RefObject<((verb: DecideVerb) => void) | null>;
  reasonRef?: RefObject<HTMLInputElement | null>;
}) {
  const [reason, setReason] = useState('');
  const decide = useDecideApproval(onDecided);
  const send = (verb: DecideVerb) => {
    if (!decide.isPending) decide.mutate({ id, verb, reason });
  };
  useEffect(() => {
    if (!commandRef) return;
    commandRef.current = send;
    return () => {
      commandRef.current = null;
    };
  });
  return (
    <div className="decide">
      <label className="field">
        <span>Reason (optional)</span>
        <input ref={reasonRef} value={reason} onChange={(event) => setReason(event.target.value)} maxLength={2000} aria-keyshortcuts="r" />
      </label>
      <div className="decide-buttons">
        <button
          type="button"
          className="button button-primary"
          aria-disabled={decide.isPending}
          aria-label={`Approve ${actsOn}`}
          aria-keyshortcuts="a"
          onClick={() => send('approve')}
        >
          Approve
        </button>
        <button
          type="button"
          className="button button-danger"
          aria-disabled={decide.isPending}
          aria-label={`Deny ${actsOn}`}
          aria-keyshortcuts="d"
          onClick={() => send('deny')}
        >
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
