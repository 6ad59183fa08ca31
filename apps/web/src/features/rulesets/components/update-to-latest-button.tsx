// Update to latest for one pin or every pin: saves the next set version as a draft and shows it.

import type { Ruleset } from '../api/types.ts';
import { useUpdateToLatest } from '../api/update-to-latest.ts';
import { RulesetError } from './ruleset-error.tsx';

interface UpdateToLatestButtonProps {
  id: string;
  /** One pin's rule id; every pin with a newer version when left out. */
  ruleId?: string;
  onSaved: (draft: Ruleset) => void;
}

export function UpdateToLatestButton({ id, ruleId, onSaved }: UpdateToLatestButtonProps) {
  const update = useUpdateToLatest(onSaved);
  const label = ruleId === undefined ? 'Update all to latest' : 'Update to latest';
  return (
    <div className="update-to-latest">
      <button
        type="button"
        className="button"
        disabled={update.isPending}
        // The visible text starts the name (label in name, WCAG 2.5.3); the pin it updates follows.
        aria-label={ruleId === undefined ? undefined : `${label}: ${ruleId}`}
        onClick={() => update.mutate({ id, ruleIds: ruleId === undefined ? undefined : [ruleId] })}
      >
        {update.isPending ? `${label}…` : label}
      </button>
      {update.error !== null && <RulesetError error={update.error} />}
    </div>
  );
}
