// Under four eyes, the history page's versions waiting for review (docs/security.md, "Four eyes"): each widening
// version with its author, reason and impact, and its Activate for an owner or admin other than its author.
import type { WaitingVersion } from '../api/get-review-queue.ts';
import { writtenBy } from '../api/get-review-queue.ts';
import { withArrows } from '../review-words.ts';
import { ActivateAction } from './activate-action.tsx';
import { ImpactPreviewPanel } from './impact-preview.tsx';

interface ReviewQueueProps {
  id: string;
  waiting: readonly WaitingVersion[];
  /** The signed-in member's name; null while unknown. */
  me: string | null;
  canManage: boolean;
  newest: number | null;
  isPolicy: boolean;
}

export function ReviewQueue({ id, waiting, me, canManage, newest, isPolicy }: ReviewQueueProps) {
  if (waiting.length === 0) return null;
  return (
    <section className="panel review-queue" aria-labelledby="review-queue-heading">
      <h2 id="review-queue-heading" className="panel-title">
        Waiting for review
      </h2>
      <p className="muted">
        Four eyes are on (review_widening_edits): these versions widen what runs, so they are stored and do not run until an owner or admin
        other than their author activates them.
      </p>
      {/* biome-ignore lint/a11y/noRedundantRoles: list-style none drops the implicit role in some browsers */}
      <ol role="list" aria-label="Versions waiting for review" className="history">
        {waiting.map(({ version, diff }) => (
          <li key={version.sequence} className="version">
            <div className="version-head">
              <strong>Version {version.sequence}</strong>
              <span className="badge badge-newer_not_running">waiting for review</span>
              <span className="muted version-author">
                {version.author.kind}: {version.author.label}
              </span>
            </div>
            <p className="version-reason">{version.reason}</p>
            <section className="impact" aria-label={`What version ${version.sequence} widens`}>
              <p className="impact-verdict impact-widens">Widens security</p>
              {/* biome-ignore lint/a11y/noRedundantRoles: list-style none drops the implicit role in some browsers */}
              <ul role="list" aria-label="Widened subjects" className="impact-subjects">
                {diff.impact.widened_subjects.map((subject) => (
                  <li key={subject}>
                    <code>{withArrows(subject)}</code>
                  </li>
                ))}
              </ul>
            </section>
            {isPolicy && <ImpactPreviewPanel id={id} candidate={version.sequence} />}
            <ReviewAction id={id} waiting={{ version, diff }} me={me} canManage={canManage} newest={newest} />
          </li>
        ))}
      </ol>
    </section>
  );
}

function ReviewAction({
  id,
  waiting,
  me,
  canManage,
  newest,
}: Omit<ReviewQueueProps, 'waiting' | 'isPolicy'> & { waiting: WaitingVersion }) {
  const { version } = waiting;
  const why = `review-why-${version.sequence}`;
  if (!canManage || newest === null) return <p className="muted">An owner or admin other than its author activates it.</p>;
  if (writtenBy(version, me)) {
    return (
      <div className="confirm-action">
        <button type="button" className="button" disabled aria-describedby={why}>
          Activate version {version.sequence}
        </button>
        <p id={why} className="muted">
          You wrote this version: under four eyes another owner or admin activates it.
        </p>
      </div>
    );
  }
  // The impact preview is shown above already: the confirmation does not repeat it.
  return <ActivateAction id={id} version={version} newest={newest} isPolicy={false} />;
}
