// Change the set's status (draft, test, active, disabled) after a confirmation; owners and admins only.
import { useId, useState } from 'react';
import { usePatchRuleset } from '../api/patch-ruleset.ts';
import { newestVersion, type RuleStatus, type Ruleset } from '../api/types.ts';
import { statusChoices } from '../ruleset-permissions.ts';
import { ConfirmStep } from './confirm-step.tsx';

export function StatusChange({ set }: { set: Ruleset }) {
  const choices = statusChoices(set.status);
  const [picked, setPicked] = useState<Exclude<RuleStatus, 'archived'> | null>(null);
  const patch = usePatchRuleset();
  const fieldId = useId();
  const target = picked !== null && choices.includes(picked) ? picked : choices[0];
  if (target === undefined) return null;
  return (
    <div className="status-change">
      <label htmlFor={fieldId} className="field">
        New status
      </label>
      <select
        id={fieldId}
        className="select"
        value={target}
        onChange={(event) => setPicked(event.target.value as Exclude<RuleStatus, 'archived'>)}
      >
        {choices.map((s) => (
          <option key={s} value={s}>
            {s}
          </option>
        ))}
      </select>
      <ConfirmStep
        label="Change status"
        question={`Set ${set.name} from ${set.status} to ${target}?`}
        confirmLabel={`Confirm ${target}`}
        pending={patch.isPending}
        error={patch.error}
        onConfirm={() => patch.mutate({ id: set.id, change: { status: target }, newest: newestVersion(set) })}
      />
    </div>
  );
}
