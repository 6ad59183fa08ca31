// POST /v1/trials (owners and admins): starts a trial of a stored candidate version; the answer is the trial's
// report, put in the trial's cache entry at once, so the panel shows the new trial without asking again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { StartTrialBody } from '../trial-form.ts';
import type { TrialReport } from './types.ts';

export async function startTrial(body: StartTrialBody): Promise<TrialReport> {
  return bodyOf(await api.POST('/trials', { body }));
}

export function useStartTrial() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: startTrial,
    onSuccess: (report) => client.setQueryData(queryKeys.trial(report.document), report),
  });
}
