// A button with a confirmation step: the first click asks, the second acts. What to read or pick before
// confirming goes inside the question; an error is shown plainly, or the caller's way.
import { type ReactNode, useState } from 'react';
import { ApiError } from '../lib/api/api-error.ts';

interface ConfirmButtonProps {
  label: string;
  question: string;
  confirmLabel: string;
  pending: boolean;
  error: Error | null;
  onConfirm: () => void;
  /** More to read or pick before confirming (an archive's run count and replacement). */
  children?: ReactNode;
  danger?: boolean;
  className?: string;
  renderError?: (error: Error) => ReactNode;
}

export function ConfirmButton(props: ConfirmButtonProps) {
  const { label, question, confirmLabel, pending, error, onConfirm, children, danger, className, renderError } = props;
  const [asking, setAsking] = useState(false);
  const confirm = () => {
    setAsking(false);
    onConfirm();
  };
  return (
    <div className={className}>
      {asking ? (
        <fieldset className="confirm">
          <legend>{question}</legend>
          {children}
          <div className="actions">
            <button type="button" className={danger ? 'button button-danger' : 'button button-primary'} onClick={confirm}>
              {confirmLabel}
            </button>
            <button type="button" className="button" onClick={() => setAsking(false)}>
              Cancel
            </button>
          </div>
        </fieldset>
      ) : (
        <button type="button" className={danger ? 'button button-danger' : 'button'} disabled={pending} onClick={() => setAsking(true)}>
          {pending ? `${label}…` : label}
        </button>
      )}
      {error !== null &&
        (renderError ? (
          renderError(error)
        ) : (
          <p className="state state-error" role="alert">
            {error instanceof ApiError ? `${error.message} (${error.code})` : error.message}
          </p>
        ))}
    </div>
  );
}
