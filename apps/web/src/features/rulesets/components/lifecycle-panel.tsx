// Owners' and admins' changes to a set: its status, the active version, archive and restore.
import type { Ruleset } from '../api/types.ts';
import { canBecomeActive } from '../ruleset-permissions.ts';
import { ArchiveAction, RestoreAction } from './archive-action.tsx';
import { MakeActive } from './make-active.tsx';
import { StatusChange } from './status-change.tsx';

export function LifecyclePanel({ set }: { set: Ruleset }) {
  return (
    <section className="panel lifecycle" aria-labelledby="lifecycle-heading">
      <h3 id="lifecycle-heading" className="panel-title">
        Status and active version
      </h3>
      {set.status === 'archived' ? (
        <RestoreAction set={set} />
      ) : (
        <>
          {canBecomeActive(set) && <MakeActive set={set} />}
          <StatusChange set={set} />
          <ArchiveAction set={set} />
        </>
      )}
    </section>
  );
}
