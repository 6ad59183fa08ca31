// While an impact preview is worked out on the server: where it stands (running for how long, or how many
// analyses wait ahead of it) and a Cancel that aborts the request, which stops the analysis on its thread
// (docs/review.md, "Budgets and cancelling"). A cancelled preview offers to run again.
import { useIsFetching, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Loading } from '../../../components/query-state.tsx';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useReviewJobs } from '../api/get-review-jobs.ts';

/** How long a preview is worked out before the wait says where it stands and offers Cancel. */
const LONG_MS = 1000;

/** The server's name for the preview of `to` against `from` (routes/review.ts). */
function jobName(id: string, from: number, to: number): string {
  return `${id} versions ${from} -> ${to}`;
}

export function AnalysisWait({ id, from, to }: { id: string; from: number; to: number }) {
  const client = useQueryClient();
  const queryKey = queryKeys.documents.impactPreview(id, to, from);
  // Read apart from the preview's own observer, so the page holding the preview re-renders on nothing new.
  const fetching = useIsFetching({ queryKey, exact: true }) > 0;
  // Most previews answer within a second: only a longer one is worth its standing and a Cancel.
  const [long, setLong] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setLong(true), LONG_MS);
    return () => clearTimeout(timer);
  }, []);
  const jobs = useReviewJobs(fetching && long);
  const mine = jobs.data?.jobs.find((j) => j.what === jobName(id, from, to));
  if (!long) return <Loading label="Working out which calls change" />;
  if (!fetching) {
    return (
      <p className="state state-empty" role="status">
        The analysis was cancelled.{' '}
        <button type="button" className="button" onClick={() => void client.refetchQueries({ queryKey, exact: true })}>
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
      <button type="button" className="button" onClick={() => void client.cancelQueries({ queryKey, exact: true })}>
        Cancel
      </button>
    </p>
  );
}
