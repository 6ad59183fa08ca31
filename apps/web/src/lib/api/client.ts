// The console's one API client: openapi-fetch typed by the generated paths (schema.d.ts, from
// GET /v1/openapi.json), with one middleware that adds the Bearer key and turns every error answer into an
// ApiError. It remembers nothing between calls: the key (or the identity provider's token, lib/token-session.ts)
// is read from the session on each request.
import createClient, { type Middleware } from 'openapi-fetch';
import { readSessionKey } from '../session-key.ts';
import { endTokenSession, readTokenSession } from '../token-session.ts';
import { ApiError, apiErrorOf, isErrorBody } from './api-error.ts';
import type { paths } from './schema';

/** The Authorization header for `key` (a call made with a key other than the session's). */
export function bearer(key: string): { authorization: string } {
  return { authorization: `Bearer ${key}` };
}

/** The If-Match header naming a version as its strong entity tag (docs/api.md, preconditions). Example: `ifMatch(7)` is `{'if-match': '"7"'}`. */
export function ifMatch(version: number): { 'if-match': string } {
  return { 'if-match': `"${version}"` };
}

async function jsonOf(response: Response): Promise<unknown> {
  try {
    return JSON.parse(await response.text());
  } catch {
    return undefined;
  }
}

const errorsAsApiError: Middleware = {
  onRequest({ request }) {
    request.headers.set('accept', 'application/json');
    if (!request.headers.has('authorization')) {
      const key = readTokenSession()?.token ?? readSessionKey();
      if (key) request.headers.set('authorization', `Bearer ${key}`);
    }
    return request;
  },
  async onResponse({ request, response }) {
    if (response.ok) return response;
    const body = await jsonOf(response.clone());
    // The edit seam answers its refusals and conflicts as outcomes under error statuses (docs/api.md): those
    // bodies are answers the page shows; only the error shape (or no JSON at all) is an error.
    if (typeof body === 'object' && body !== null && !isErrorBody(body)) return response;
    const error = apiErrorOf(response.status, body);
    // A token the server calls expired ends the session as its own expiry does; a key (tg_) never does.
    const sent = request.headers.get('authorization') ?? '';
    if (error.status === 401 && error.code === 'TOKEN_EXPIRED' && sent.startsWith('Bearer ') && !sent.startsWith('Bearer tg_')) {
      endTokenSession('expired');
    }
    throw error;
  },
  onError({ error }) {
    if (error instanceof DOMException && error.name === 'AbortError') return;
    return new ApiError(0, 'NETWORK', 'the server could not be reached');
  },
};

export const api = createClient<paths>({ baseUrl: '/v1' });
api.use(errorsAsApiError);

/** A 2xx answer's body. Example: `bodyOf(await api.GET('/documents'))`. */
export function bodyOf<T>(result: { data?: T; response: Response }): T {
  if (result.data === undefined)
    throw new ApiError(result.response.status, 'HTTP_ERROR', `the server answered ${result.response.status} without a body`);
  return result.data;
}

/**
 * The answer of a route that answers outcomes under error statuses too (the edit seam's 403, 409, 422 and 503):
 * the middleware has thrown every error-shaped answer, so what is left, 2xx or not, is an outcome.
 */
export function outcomeOf<T>(result: { data?: T; error?: unknown; response: Response }): T {
  return result.data ?? (result.error as T);
}
