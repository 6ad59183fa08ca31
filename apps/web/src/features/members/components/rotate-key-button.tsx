// Rotate: asks how long the old key keeps working (now, an hour, a day, seven days, or custom seconds), then
// makes its successor, which the page shows once.
import { useId, useState } from 'react';
import { ConfirmButton } from '../../../components/confirm-button.tsx';
import { useRotateKey } from '../api/rotate-key.ts';
import type { Key } from '../api/types.ts';
import { holderOf, MAX_OVERLAP_SECONDS, OVERLAPS, overlapOf, type RevealedKey } from '../key-forms.ts';

interface RotateKeyButtonProps {
  info: Key;
  label: string;
  onSaid: (text: string) => void;
  onSecret: (revealed: RevealedKey) => void;
}

export function RotateKeyButton({ info, label, onSaid, onSecret }: RotateKeyButtonProps) {
  const name = useId();
  const [choice, setChoice] = useState<number | 'custom'>(0);
  const [custom, setCustom] = useState('');
  const [problem, setProblem] = useState<Error | null>(null);
  const rotate = useRotateKey((revealed) => {
    onSaid(`${label} of ${holderOf(info)} was rotated: copy its successor now.`);
    onSecret(revealed);
  });
  const confirm = () => {
    const overlap = overlapOf(choice, custom);
    if ('problem' in overlap) {
      setProblem(new Error(overlap.problem));
      return;
    }
    setProblem(null);
    rotate.mutate({ id: info.id, overlapSeconds: overlap.seconds });
  };
  return (
    <ConfirmButton
      label="Rotate"
      question={`Rotate ${label} of ${holderOf(info)}?`}
      confirmLabel={`Rotate ${label}`}
      pending={rotate.isPending}
      error={problem ?? rotate.error}
      onConfirm={confirm}
    >
      <fieldset className="rotate-overlap">
        <legend>How long the old key keeps working</legend>
        {OVERLAPS.map((overlap) => (
          <label key={overlap.seconds} className="check">
            <input type="radio" name={name} checked={choice === overlap.seconds} onChange={() => setChoice(overlap.seconds)} />
            {overlap.label}
          </label>
        ))}
        <label className="check">
          <input type="radio" name={name} checked={choice === 'custom'} onChange={() => setChoice('custom')} />
          Custom
        </label>
        {choice === 'custom' && (
          <label className="field">
            <span>Seconds (0 to {MAX_OVERLAP_SECONDS})</span>
            <input inputMode="numeric" value={custom} onChange={(event) => setCustom(event.target.value)} />
          </label>
        )}
      </fieldset>
    </ConfirmButton>
  );
}
