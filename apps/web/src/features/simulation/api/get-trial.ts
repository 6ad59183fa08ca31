// GET /v1/trials/{document}: the trial of a policy, or null when it has none (204, an empty state).
// While a trial runs its report is fetched again every 2 s (only while the page is visible), so its counts
// follow the calls as they arrive; a stopped trial is not polled (docs/console.md, "Simulation").
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { TrialReport } from './types.ts';

/** How often a running trial's report is read again. */
export const TRIAL_REFRESH_MS = 2000;

export async function getTrial(document: string, signal?: AbortSignal): Promise<TrialReport | null> {
  const result = await api.GET('/trials/{document}', { params: { path: { document } }, signal });
  return result.response.status === 204 ? null : bodyOf(result);
}

export const trialQueryOptions = (document: string) =>
  queryOptions({
    queryKey: queryKeys.trial(document),
    queryFn: ({ signal }) => getTrial(document, signal),
    refetchInterval: (query) => (query.state.data?.running ? TRIAL_REFRESH_MS : false),
  });

export function useTrial(document: string | null) {
  return useQuery({ ...trialQueryOptions(document ?? ''), enabled: document !== null });
}
