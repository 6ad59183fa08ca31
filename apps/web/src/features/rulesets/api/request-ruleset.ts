// The rule-set routes through the shared apiFetch; a refusal's details name the rules at fault (issue 7:
// "each naming every rule at fault"), which the page shows.
import { apiFetch } from '../../../lib/api-client.ts';

/** The rule ids an error's details name. Example: `rulesOf({rules: ['a']})` is `['a']`. */
export function rulesOf(details: unknown): string[] {
  if (typeof details !== 'object' || details === null || !('rules' in details)) return [];
  const rules = (details as { rules: unknown }).rules;
  return Array.isArray(rules) ? rules.filter((r): r is string => typeof r === 'string') : [];
}

/** Calls a rule-set route. Example: `await requestRuleset<{rulesets: Ruleset[]}>('/v1/rulesets')`. */
export function requestRuleset<T>(
  path: string,
  options: { method?: 'GET' | 'POST' | 'PATCH'; body?: unknown; signal?: AbortSignal } = {},
): Promise<T> {
  return apiFetch<T>(path, options);
}

/** The path of one set, its id as one encoded segment. */
export function rulesetPath(id: string, rest = ''): string {
  return `/v1/rulesets/${encodeURIComponent(id)}${rest}`;
}
