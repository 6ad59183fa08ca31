// A button with a confirmation step: the first click asks, the second acts; errors are shown with their rules.
import { type ReactNode, useState } from 'react';
import { RulesetError } from './ruleset-error.tsx';

interface ConfirmStepProps {
  label: string;
  question: string;
  confirmLabel: string;
  pending: boolean;
  error: Error | null;
  onConfirm: () => void;
  /** More to read or pick before confirming (the archive step's run count and replacement). */
  children?: ReactNode;
  danger?: boolean;
}

export function ConfirmStep({ label, question, confirmLabel, pending, error, onConfirm, children, danger }: ConfirmStepProps) {
  const [asking, setAsking] = useState(false);
  const confirm = () => {
    setAsking(false);
    onConfirm();
  };
  return (
    <div className="confirm-step">
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
      {error !== null && <RulesetError error={error} />}
    </div>
  );
}
