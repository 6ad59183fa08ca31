// Make the shown version the set's active version: agents that name no version run it from then on.
import { usePatchRuleset } from '../api/patch-ruleset.ts';
import { newestVersion, type Ruleset } from '../api/types.ts';
import { ConfirmStep } from './confirm-step.tsx';

export function MakeActive({ set }: { set: Ruleset }) {
  const patch = usePatchRuleset();
  return (
    <ConfirmStep
      label="Make this version active"
      question={`Run version ${set.version_id} of ${set.name} for every agent that names no version?`}
      confirmLabel={`Confirm making version ${set.version_id} active`}
      pending={patch.isPending}
      error={patch.error}
      onConfirm={() => patch.mutate({ id: set.id, change: { active_version: set.version_id }, newest: newestVersion(set) })}
    />
  );
}
