// API errors: `{"error": {"code", "message", "details"?}}` with a fitting status. Bad input never gets a
// 500 and never changes state; a bug gets a 500 without a stack trace.
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

export class ApiError extends Error {
  readonly status: ContentfulStatusCode;
  readonly code: string;
  readonly details: unknown;
  constructor(status: ContentfulStatusCode, code: string, message: string, details?: unknown) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

export function errorBody(code: string, message: string, details?: unknown) {
  return { error: details === undefined ? { code, message } : { code, message, details } };
}

/** The app's one onError. */
export function handleError(err: Error, c: Context) {
  if (err instanceof ApiError) return c.json(errorBody(err.code, err.message, err.details), err.status);
  if (err instanceof HTTPException) {
    const code =
      err.status === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : err.status === 400 && /json/i.test(err.message) ? 'INVALID_JSON' : 'HTTP_ERROR';
    return c.json(errorBody(code, err.message || 'the request cannot be read'), err.status);
  }
  if (err instanceof SyntaxError) return c.json(errorBody('INVALID_JSON', 'the body is not JSON'), 400);
  return c.json(errorBody('INTERNAL', 'the server could not answer this request'), 500);
}
