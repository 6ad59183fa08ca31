// A document's history: every version, two of them compared, and activate and revert for owners and admins
// (for a policy, each confirmation shows the impact preview of the version it would run); under four eyes, the
// versions waiting for review above them.
import { documentKindOf } from '@tollgate/engine';
import { PageHeading } from '../../../components/page-heading.tsx';
import { ErrorNotice, Loading } from '../../../components/query-state.tsx';
import { useHistory } from '../api/get-history.ts';
import { useReviewQueue } from '../api/get-review-queue.ts';
import { newestSequence } from '../api/types.ts';
import { ActivateAction } from './activate-action.tsx';
import { ComparePasted } from './compare-pasted.tsx';
import { CompareVersions } from './compare-versions.tsx';
import { HistoryList } from './history-list.tsx';
import { RevertAction } from './revert-action.tsx';
import { ReviewQueue } from './review-queue.tsx';

interface HistoryPageProps {
  id: string;
  /** Owners and admins may activate and revert. */
  canManage: boolean;
  /** The signed-in member's name (null while unknown): under four eyes they do not activate what they wrote. */
  me: string | null;
  backHref: string;
}

export function HistoryPage({ id, canManage, me, backHref }: HistoryPageProps) {
  const history = useHistory(id);
  const waiting = useReviewQueue(id, history.data ?? []);
  // A version waiting for review is activated from the review panel, beside its impact.
  const reviewed = new Set(waiting.map((w) => w.version.sequence));
  // The document's entity tag as this page read it: activate and revert send it as If-Match.
  const newest = history.data === undefined ? null : newestSequence(history.data);
  const isPolicy = documentKindOf(id) === 'policy';
  return (
    <div className="history-page">
      <section className="panel" aria-labelledby="versions-heading">
        <a className="back-link" href={backHref}>
          Back to the document
        </a>
        <PageHeading id="versions-heading" title="History of" subject={id} />
        {canManage && newest !== null && <RevertAction id={id} newest={newest} isPolicy={isPolicy} />}
        <HistoryList
          id={id}
          actions={
            canManage && newest !== null
              ? (version) =>
                  reviewed.has(version.sequence) ? null : <ActivateAction id={id} version={version} newest={newest} isPolicy={isPolicy} />
              : undefined
          }
        />
      </section>
      <ReviewQueue id={id} waiting={waiting} me={me} canManage={canManage} newest={newest} isPolicy={isPolicy} />
      {history.isPending && <Loading label="Loading the versions to compare" />}
      {history.isError && <ErrorNotice error={history.error} />}
      {history.isSuccess && <CompareVersions id={id} history={history.data} isPolicy={isPolicy} />}
      {isPolicy && history.isSuccess && <ComparePasted id={id} />}
    </div>
  );
}
