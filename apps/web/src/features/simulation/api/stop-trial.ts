// POST /v1/trials/{document}/stop (owners and admins): the trial samples no more calls; its counts and
// differences stay. The answer is the stopped trial's report, which the panel shows at once.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { TrialReport } from './types.ts';

export async function stopTrial(document: string): Promise<TrialReport> {
  return bodyOf(await api.POST('/trials/{document}/stop', { params: { path: { document } } }));
}

export function useStopTrial() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: stopTrial,
    onSuccess: (report) => client.setQueryData(queryKeys.trial(report.document), report),
  });
}
