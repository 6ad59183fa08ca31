// The edit seam's answer, said plainly: applied, held for review, refused or rejected with reasons, or a conflict.

import { ReasonList } from '../../../components/reason-list.tsx';
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
      <ReasonList items={outcome.reasons} />
      {impact.widens_security && (
        <div className="outcome-impact">
          <p>This edit widens what is allowed:</p>
          <ReasonList items={impact.widened_subjects} label="Widened subjects" render={(subject) => <code>{subject}</code>} />
        </div>
      )}
      {/* A policy's impact also names the calls it narrows (its decision diff, docs/documents.md, "Policies"). */}
      {!impact.widens_security && (impact.changes?.length ?? 0) > 0 && (
        <div className="outcome-impact">
          <p>This edit changes no call toward allow; calls decided differently:</p>
          <ReasonList items={impact.changes ?? []} label="Decision changes" render={(subject) => <code>{subject}</code>} />
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
