// While an impact preview is worked out on the server: where it stands (running for how long, or how many
// analyses wait ahead of it) and a Cancel that aborts the request, which stops the analysis on its thread
// (docs/review.md, "Budgets and cancelling"). A cancelled preview offers to run again.
import { type UseQueryResult, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useReviewJobs } from '../api/get-review-jobs.ts';

/** The server's name for the preview of `to` against `from` (routes/review.ts). */
function jobName(id: string, from: number, to: number): string {
  return `${id} versions ${from} -> ${to}`;
}

export function AnalysisWait({
  id,
  from,
  to,
  query,
}: {
  id: string;
  from: number;
  to: number;
  query: Pick<UseQueryResult, 'fetchStatus' | 'refetch'>;
}) {
  const client = useQueryClient();
  const fetching = query.fetchStatus === 'fetching';
  const jobs = useReviewJobs(fetching);
  const mine = jobs.data?.jobs.find((j) => j.what === jobName(id, from, to));
  if (!fetching) {
    return (
      <p className="state state-empty" role="status">
        The analysis was cancelled.{' '}
        <button type="button" className="button" onClick={() => void query.refetch()}>
          Run it again
        </button>
      </p>
    );
  }
  const where =
    mine === undefined
      ? ''
      : mine.state === 'queued'
        ? ` (waiting: ${mine.ahead === 0 ? 'next to run' : `${mine.ahead} ahead`})`
        : ` (running for ${Math.floor((mine.running_ms ?? 0) / 1000)} s of at most ${Math.round((jobs.data?.time_budget_ms ?? 0) / 1000)} s)`;
  return (
    <p className="state state-loading" role="status">
      Working out which calls change{where}…{' '}
      <button
        type="button"
        className="button"
        onClick={() => void client.cancelQueries({ queryKey: queryKeys.documents.impactPreview(id, to, from) })}
      >
        Cancel
      </button>
    </p>
  );
}
