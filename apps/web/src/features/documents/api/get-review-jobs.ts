// GET /v1/review/queue: the decision maps, diffs and impact previews running and waiting on the node, so a
// long analysis can say where it stands (docs/review.md, "Budgets and cancelling"). Polled only while one waits.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export type ReviewJobs = Awaited<ReturnType<typeof getReviewJobs>>;

export async function getReviewJobs(signal?: AbortSignal) {
  return bodyOf(await api.GET('/review/queue', { signal }));
}

export const reviewJobsQueryOptions = (enabled: boolean) =>
  queryOptions({
    queryKey: queryKeys.reviewJobs(),
    queryFn: ({ signal }) => getReviewJobs(signal),
    enabled,
    refetchInterval: enabled ? 1_000 : false,
  });

export function useReviewJobs(enabled: boolean) {
  return useQuery(reviewJobsQueryOptions(enabled));
}
