// GET /v1/decisions: recorded calls of an agent over a time range, for their amounts and arguments.
import { api, bodyOf } from '../../../lib/api/client.ts';
import type { RecordedDecision, RecordedFilter } from './types.ts';

/** The most decisions one request answers (MAX_DECISIONS_LIMIT in the API). */
const LIMIT = 500;

export async function getDecisions(filter: RecordedFilter, withArguments: boolean): Promise<RecordedDecision[]> {
  const query = {
    limit: LIMIT,
    ...(filter.agent ? { agent: filter.agent } : {}),
    ...(filter.since ? { since: filter.since } : {}),
    ...(filter.until ? { until: filter.until } : {}),
    ...(withArguments ? { with_arguments: 'true' as const } : {}),
  };
  return bodyOf(await api.GET('/decisions', { params: { query } })).decisions;
}
