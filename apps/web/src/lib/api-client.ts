// fetch for the API: the bearer key, JSON both ways, and errors as ApiError ({error:{code,message}}, docs/api.md).
import { readSessionKey } from './session-key.ts';

/** An error the API answered (or a network failure, with status 0). */
export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  /** The error's details, as answered (a refusal's rules at fault, a validation's issues). */
  readonly details: unknown;
  constructor(status: number, code: string, message: string, details?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH';
  body?: unknown;
  /** Defaults to the session's key. */
  key?: string | null;
  signal?: AbortSignal;
  /** Error statuses whose JSON body is an answer, not an error (the edit seam's 409, 422 and 403 outcomes). */
  accept?: readonly number[];
}

/** The headers for a request with `key`. */
export function authHeaders(key: string | null | undefined): Record<string, string> {
  return key ? { authorization: `Bearer ${key}` } : {};
}

/** One path segment, URL-encoded (document ids hold slashes). Example: `segment('policies/a.json')`. */
export function segment(value: string): string {
  return encodeURIComponent(value);
}

function isErrorBody(value: unknown): value is { error: { code: string; message: string; details?: unknown } } {
  if (typeof value !== 'object' || value === null || !('error' in value)) return false;
  const error = value.error;
  return typeof error === 'object' && error !== null && 'code' in error && 'message' in error;
}

/** Calls the API and answers its JSON. Example: `await apiFetch<{documents: Doc[]}>('/v1/documents')`. */
export async function apiFetch<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const key = options.key === undefined ? readSessionKey() : options.key;
  const headers: Record<string, string> = { accept: 'application/json', ...authHeaders(key) };
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
    throw new ApiError(0, 'NETWORK', 'the server could not be reached');
  }
  const text = await response.text();
  let json: unknown = null;
  try {
    json = text === '' ? null : JSON.parse(text);
  } catch {
    json = null;
  }
  if (!response.ok && !(options.accept?.includes(response.status) && json !== null && !isErrorBody(json))) {
    if (isErrorBody(json)) throw new ApiError(response.status, json.error.code, json.error.message, json.error.details);
    throw new ApiError(response.status, 'HTTP_ERROR', `the server answered ${response.status}`);
  }
  return json as T;
}
