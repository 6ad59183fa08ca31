// What the edit seam made of a stored example suite, said plainly; a conflict offers the stored version.

import { ReasonList } from '../../../components/reason-list.tsx';
import type { SuiteOutcome as Outcome } from '../api/post-example-suite.ts';

const HEADLINES: Record<Outcome['status'], string> = {
  applied: 'stored',
  saved_not_running: 'held for review: stored, not running',
  refused: 'refused: nothing was stored',
  rejected: 'rejected: stored as a rejected version',
  conflict: 'conflict: someone stored another version first',
};

export function SuiteOutcome({ outcome, onReload }: { outcome: Outcome; onReload: () => void }) {
  return (
    <section className={`outcome outcome-${outcome.status}`} role="status" aria-label="Example suite outcome">
      <p className="outcome-headline">
        <strong>{HEADLINES[outcome.status]}</strong>
        {outcome.version !== undefined && <span className="muted"> · version {outcome.version.sequence}</span>}
      </p>
      <ReasonList items={outcome.reasons} />
      {outcome.status === 'conflict' && (
        <button type="button" className="button" onClick={onReload}>
          Load the stored suite (drops your changes)
        </button>
      )}
    </section>
  );
}
