// GET /v1/trials/{document}: the trial of a policy, or null when it has none (204, an empty state).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { TrialReport } from './types.ts';

export async function getTrial(document: string, signal?: AbortSignal): Promise<TrialReport | null> {
  const result = await api.GET('/trials/{document}', { params: { path: { document } }, signal });
  return result.response.status === 204 ? null : bodyOf(result);
}

export const trialQueryOptions = (document: string) =>
  queryOptions({ queryKey: queryKeys.trial(document), queryFn: ({ signal }) => getTrial(document, signal) });

export function useTrial(document: string | null) {
  return useQuery({ ...trialQueryOptions(document ?? ''), enabled: document !== null });
}
