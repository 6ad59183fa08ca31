// Archive with an optional replacement from the other sets, showing the runs of the last 30 days before the
// confirmation (docs/rulesets.md, "Versions and lifecycle"); restore for an archived set.
import { useId, useState } from 'react';
import { useArchiveRuleset, useRestoreRuleset } from '../api/archive-ruleset.ts';
import { useRulesets } from '../api/get-rulesets.ts';
import type { Ruleset } from '../api/types.ts';
import { ConfirmStep } from './confirm-step.tsx';

function ReplacementPicker({ set, value, onPick }: { set: Ruleset; value: string; onPick: (id: string) => void }) {
  // Any set but an archived one may replace it, a draft too: ask for all of them.
  const rulesets = useRulesets('all');
  const fieldId = useId();
  const others = (rulesets.data ?? []).filter((other) => other.id !== set.id && other.status !== 'archived');
  return (
    <div className="archive-replacement">
      <label htmlFor={fieldId} className="field">
        Replacement for agents
      </label>
      <select id={fieldId} className="select" value={value} onChange={(event) => onPick(event.target.value)}>
        <option value="">No replacement</option>
        {others.map((other) => (
          <option key={other.id} value={other.id}>
            {other.name} ({other.id})
          </option>
        ))}
      </select>
      {rulesets.isPending && <span className="muted"> loading the other sets…</span>}
    </div>
  );
}

function runsLabel(runs: number): string {
  return runs === 1 ? '1 run in the last 30 days' : `${runs} runs in the last 30 days`;
}

export function ArchiveAction({ set }: { set: Ruleset }) {
  const archive = useArchiveRuleset();
  const [replacement, setReplacement] = useState('');
  return (
    <ConfirmStep
      label="Archive"
      question={`Archive ${set.name}?`}
      confirmLabel="Confirm archive"
      pending={archive.isPending}
      error={archive.error}
      danger
      onConfirm={() => archive.mutate({ id: set.id, replacedBy: replacement === '' ? null : replacement })}
    >
      <p className="archive-runs">
        <strong>{runsLabel(set.runs_last_30_days)}</strong>. Runs of an archived set are refused with RULESET_ARCHIVED.
      </p>
      <ReplacementPicker set={set} value={replacement} onPick={setReplacement} />
    </ConfirmStep>
  );
}

export function RestoreAction({ set }: { set: Ruleset }) {
  const restore = useRestoreRuleset();
  return (
    <ConfirmStep
      label="Restore"
      question={`Restore ${set.name} to the status it had?`}
      confirmLabel="Confirm restore"
      pending={restore.isPending}
      error={restore.error}
      onConfirm={() => restore.mutate({ id: set.id })}
    />
  );
}
