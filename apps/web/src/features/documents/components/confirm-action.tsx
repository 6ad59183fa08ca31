// A button with a confirmation step: the first click asks, the second acts; errors are shown plainly.
import { useState } from 'react';
import { ApiError } from '../../../lib/api-client.ts';

interface ConfirmActionProps {
  label: string;
  question: string;
  confirmLabel: string;
  pending: boolean;
  error: Error | null;
  onConfirm: () => void;
}

export function ConfirmAction({ label, question, confirmLabel, pending, error, onConfirm }: ConfirmActionProps) {
  const [asking, setAsking] = useState(false);
  const confirm = () => {
    setAsking(false);
    onConfirm();
  };
  return (
    <div className="confirm-action">
      {asking ? (
        <fieldset className="confirm">
          <legend>{question}</legend>
          <button type="button" className="button button-primary" onClick={confirm}>
            {confirmLabel}
          </button>
          <button type="button" className="button" onClick={() => setAsking(false)}>
            Cancel
          </button>
        </fieldset>
      ) : (
        <button type="button" className="button" disabled={pending} onClick={() => setAsking(true)}>
          {pending ? `${label}…` : label}
        </button>
      )}
      {error !== null && (
        <p className="state state-error" role="alert">
          {error instanceof ApiError ? `${error.message} (${error.code})` : error.message}
        </p>
      )}
    </div>
  );
}
