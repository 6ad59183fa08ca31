// What the edit seam made of the new draft, said plainly, with the way on to its editor.
import type { DraftOutcome as Outcome } from '../api/post-draft.ts';

const HEADLINES: Record<Outcome['status'], string> = {
  applied: 'applied: the new policy is stored and running',
  saved_not_running: 'held for review: stored, not running',
  refused: 'refused: nothing was stored',
  rejected: 'rejected: stored as a rejected version, not running',
  conflict: 'conflict: a document with this name exists already; choose another name',
};

export function DraftOutcome({ outcome, id, editHref }: { outcome: Outcome; id: string; editHref: string }) {
  const stored = outcome.status === 'applied' || outcome.status === 'saved_not_running';
  return (
    <section className={`outcome outcome-${outcome.status}`} role="status" aria-label="Create outcome">
      <p className="outcome-headline">
        <strong>{HEADLINES[outcome.status]}</strong>
        {outcome.version !== undefined && (
          <span className="muted">
            {' '}
            · {id}, version {outcome.version.sequence}
          </span>
        )}
      </p>
      {outcome.reasons.length > 0 && (
        // biome-ignore lint/a11y/noRedundantRoles: list-style none drops the implicit role in some browsers
        <ul role="list" aria-label="Reasons" className="outcome-reasons">
          {outcome.reasons.map((reason) => (
            <li key={reason}>{reason}</li>
          ))}
        </ul>
      )}
      {stored && (
        <a className="button button-primary" href={editHref}>
          Open {id} in the editor
        </a>
      )}
    </section>
  );
}
