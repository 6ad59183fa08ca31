// GET /v1/decisions: recorded calls of an agent over a time range, for their amounts and arguments.
import { apiFetch } from '../../../lib/api-client.ts';
import type { RecordedFilter } from './types.ts';

/** The most decisions one request answers (MAX_DECISIONS_LIMIT in the API). */
const LIMIT = 500;

export interface RecordedDecision {
  call_id: string;
  amount: string | null;
  currency: string | null;
  arguments?: Record<string, unknown> | null;
}

export async function getDecisions(filter: RecordedFilter, withArguments: boolean): Promise<RecordedDecision[]> {
  const query = new URLSearchParams({ limit: String(LIMIT) });
  if (filter.agent) query.set('agent', filter.agent);
  if (filter.since) query.set('since', filter.since);
  if (filter.until) query.set('until', filter.until);
  if (withArguments) query.set('with_arguments', 'true');
  const body = await apiFetch<{ decisions: RecordedDecision[] }>(`/v1/decisions?${query}`);
  return body.decisions;
}
