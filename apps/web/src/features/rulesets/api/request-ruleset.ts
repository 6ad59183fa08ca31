// fetch for the rule-set routes. Unlike the shared apiFetch it keeps error.details, because a refusal's
// details name the rules at fault (issue 7: "each naming every rule at fault") and the page shows them.
import { ApiError, authHeaders } from '../../../lib/api-client.ts';
import { readSessionKey } from '../../../lib/session-key.ts';

/** An API error with the rules its details name (details.rules), empty when it names none. */
export class RulesetApiError extends ApiError {
  readonly rules: string[];
  readonly details: unknown;
  constructor(status: number, code: string, message: string, details: unknown) {
    super(status, code, message);
    this.name = 'RulesetApiError';
    this.details = details;
    this.rules = rulesOf(details);
  }
}

/** The rule ids an error's details name. Example: `rulesOf({rules: ['a']})` is `['a']`. */
export function rulesOf(details: unknown): string[] {
  if (typeof details !== 'object' || details === null || !('rules' in details)) return [];
  const rules = (details as { rules: unknown }).rules;
  return Array.isArray(rules) ? rules.filter((r): r is string => typeof r === 'string') : [];
}

function errorOf(status: number, json: unknown): RulesetApiError {
  if (typeof json === 'object' && json !== null && 'error' in json) {
    const error = (json as { error: { code?: unknown; message?: unknown; details?: unknown } }).error;
    if (typeof error.code === 'string' && typeof error.message === 'string') {
      return new RulesetApiError(status, error.code, error.message, error.details);
    }
  }
  return new RulesetApiError(status, 'HTTP_ERROR', `the server answered ${status}`, undefined);
}

/** Calls a rule-set route. Example: `await requestRuleset<{rulesets: Ruleset[]}>('/v1/rulesets')`. */
export async function requestRuleset<T>(
  path: string,
  options: { method?: 'GET' | 'POST' | 'PATCH'; body?: unknown; signal?: AbortSignal } = {},
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...authHeaders(readSessionKey()) };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new RulesetApiError(0, 'NETWORK', 'the server could not be reached', undefined);
  }
  const text = await response.text();
  let json: unknown = null;
  try {
    json = text === '' ? null : JSON.parse(text);
  } catch {
    json = null;
  }
  if (!response.ok) throw errorOf(response.status, json);
  return json as T;
}

/** The path of one set, its id as one encoded segment. */
export function rulesetPath(id: string, rest = ''): string {
  return `/v1/rulesets/${encodeURIComponent(id)}${rest}`;
}
