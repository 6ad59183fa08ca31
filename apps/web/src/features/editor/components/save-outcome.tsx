// The edit seam's answer, said plainly: applied, held for review, refused or rejected with reasons, or a conflict.
import type { EditOutcome } from '../api/types.ts';

const HEADLINES: Record<EditOutcome['status'], string> = {
  applied: 'applied: the new version is running',
  saved_not_running: 'held for review: saved, not running',
  refused: 'refused: nothing was stored',
  rejected: 'rejected: stored as a rejected version, not running',
  conflict: 'conflict: the document changed since you opened it; nothing was stored',
};

export function SaveOutcome({ outcome, onReload }: { outcome: EditOutcome; onReload: () => void }) {
  const { impact } = outcome;
  return (
    <section className={`outcome outcome-${outcome.status}`} role="status" aria-label="Save outcome">
      <p className="outcome-headline">
        <strong>{HEADLINES[outcome.status]}</strong>
        {outcome.version !== undefined && <span className="muted"> · version {outcome.version.sequence}</span>}
      </p>
      {outcome.reasons.length > 0 && (
        // biome-ignore lint/a11y/noRedundantRoles: list-style none drops the implicit role in some browsers
        <ul role="list" aria-label="Reasons" className="outcome-reasons">
          {outcome.reasons.map((reason) => (
            <li key={reason}>{reason}</li>
          ))}
        </ul>
      )}
      {impact.widens_security && (
        <div className="outcome-impact">
          <p>This edit widens what is allowed:</p>
          {/* biome-ignore lint/a11y/noRedundantRoles: list-style none drops the implicit role in some browsers */}
          <ul role="list" aria-label="Widened subjects" className="outcome-reasons">
            {impact.widened_subjects.map((subject) => (
              <li key={subject}>
                <code>{subject}</code>
              </li>
            ))}
          </ul>
        </div>
      )}
      {outcome.status === 'conflict' && (
        <button type="button" className="button" onClick={onReload}>
          Discard your text and reload the running version
        </button>
      )}
    </section>
  );
}
