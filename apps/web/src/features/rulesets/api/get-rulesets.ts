// GET /v1/rulesets: every rule set at its active version, with the newer-version flags per pin.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { requestRuleset } from './request-ruleset.ts';
import type { Ruleset } from './types.ts';

export async function getRulesets(signal?: AbortSignal): Promise<Ruleset[]> {
  const body = await requestRuleset<{ rulesets: Ruleset[] }>('/v1/rulesets', { signal });
  return body.rulesets;
}

export const rulesetsQueryOptions = () => queryOptions({ queryKey: ['rulesets', 'list'], queryFn: ({ signal }) => getRulesets(signal) });

export function useRulesets() {
  return useQuery(rulesetsQueryOptions());
}
