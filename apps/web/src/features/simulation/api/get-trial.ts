// GET /v1/trials/{document}: the trial of a policy, or null when none is running (404 NOT_FOUND, resource trial).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api/api-error.ts';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { TrialReport } from './types.ts';

export async function getTrial(document: string, signal?: AbortSignal): Promise<TrialReport | null> {
  try {
    return bodyOf(await api.GET('/trials/{document}', { params: { path: { document } }, signal }));
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export const trialQueryOptions = (document: string) =>
  queryOptions({ queryKey: queryKeys.trial(document), queryFn: ({ signal }) => getTrial(document, signal) });

export function useTrial(document: string | null) {
  return useQuery({ ...trialQueryOptions(document ?? ''), enabled: document !== null });
}
