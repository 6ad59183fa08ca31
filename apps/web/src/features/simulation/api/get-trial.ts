// GET /v1/trials/{document}: the trial of a policy, or null when none is running (404 NO_TRIAL).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, apiFetch, segment } from '../../../lib/api-client.ts';
import type { TrialReport } from './types.ts';

export async function getTrial(document: string, signal?: AbortSignal): Promise<TrialReport | null> {
  try {
    return await apiFetch<TrialReport>(`/v1/trials/${segment(document)}`, { signal });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export const trialQueryOptions = (document: string) =>
  queryOptions({ queryKey: ['trials', document], queryFn: ({ signal }) => getTrial(document, signal) });

export function useTrial(document: string | null) {
  return useQuery({ ...trialQueryOptions(document ?? ''), enabled: document !== null });
}
