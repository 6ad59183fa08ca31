// What the edit seam made of the new draft and its example suite, said plainly, with the way on to its editor.

import { ReasonList, reasonText } from '../../../components/reason-list.tsx';
import type { DraftOutcomes, DraftOutcome as Outcome } from '../api/post-draft.ts';

const HEADLINES: Record<Outcome['status'], string> = {
  applied: 'applied: the new policy is stored and running',
  saved_not_running: 'held for review: stored, not running',
  refused: 'refused: nothing was stored',
  rejected: 'rejected: stored as a rejected version, not running',
  conflict: 'conflict: a document with this name exists already; choose another name',
};

const SUITE_HEADLINES: Record<Outcome['status'], string> = {
  applied: 'stored beside it',
  saved_not_running: 'held for review',
  refused: 'refused, so the editor starts without examples',
  rejected: 'rejected',
  conflict: 'not stored: a suite with this name exists already and is kept',
};

export function DraftOutcome({ outcomes, id, editHref }: { outcomes: DraftOutcomes; id: string; editHref: string }) {
  const { policy: outcome, examples } = outcomes;
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
      <ReasonList items={outcome.reasons} />
      {examples !== null && (
        <p>
          Example calls <code>{examples.id}</code>: {SUITE_HEADLINES[examples.outcome.status]}
          {examples.outcome.reasons.length > 0 && ` (${examples.outcome.reasons.map(reasonText).join('; ')})`}.
        </p>
      )}
      {stored && (
        <a className="button button-primary" href={editHref}>
          Open {id} in the editor
        </a>
      )}
    </section>
  );
}
