// GET /v1/rulesets?status=: the sets of one status (or all), each at its active version, with the newer-version
// flags per pin. The API lists active sets unless asked (docs/rulesets.md), so the console
// says which it shows.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { Ruleset, RulesetListStatus } from './types.ts';

export async function getRulesets(status: RulesetListStatus, signal?: AbortSignal): Promise<Ruleset[]> {
  return bodyOf(await api.GET('/rulesets', { params: { query: { status } }, signal })).rulesets;
}

export const rulesetsQueryOptions = (status: RulesetListStatus) =>
  queryOptions({ queryKey: queryKeys.rulesets.list(status), queryFn: ({ signal }) => getRulesets(status, signal) });

export function useRulesets(status: RulesetListStatus) {
  return useQuery(rulesetsQueryOptions(status));
}
