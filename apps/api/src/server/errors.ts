// API errors: `{"error": {"code", "message", "details"?}}` with a fitting status. Bad input never gets a
// 500 and never changes state; a bug gets a 500 without a stack trace.

import type { ApiCode } from '@tollgate/engine';
import { readJsonText } from '@tollgate/engine/source';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { jsonReadFailed } from './json-reads.ts';
import { isDatabaseUnavailable } from './state/unavailable.ts';

export class ApiError extends Error {
  readonly status: ContentfulStatusCode;
  /** One of API_CODES (packages/engine/src/codes/api-codes.ts); the contract tests hold every answered code to it. */
  readonly code: ApiCode | (string & {});
  readonly details: unknown;
  /** Response headers the error needs (`Retry-After` on a busy store). */
  readonly headers: Record<string, string> | undefined;
  constructor(
    status: ContentfulStatusCode,
    code: ApiCode | (string & {}),
    message: string,
    details?: unknown,
    headers?: Record<string, string>,
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
    this.headers = headers;
  }
}

export function errorBody(code: ApiCode | (string & {}), message: string, details?: unknown) {
  return { error: details === undefined ? { code, message } : { code, message, details } };
}

/** The app's one onError. */
export async function handleError(err: Error, c: Context) {
  if (err instanceof ApiError) return c.json(errorBody(err.code, err.message, err.details), err.status, err.headers);
  if (err instanceof HTTPException) {
    // Hono's own refusals (a media type, a body it cannot read) in the API's vocabulary; any other is a 400.
    const message = err.message || 'the request cannot be read';
    if (err.status === 415) return c.json(errorBody('UNSUPPORTED_MEDIA_TYPE', message), 415);
    if (err.status === 413) return c.json(errorBody('TOO_LARGE', message), 413);
    // Hono's JSON validator could not read the body (json-reads.ts marks it), whatever its message says.
    if (jsonReadFailed(c)) return c.json(errorBody('INVALID_JSON', message, await notJsonAt(c)), 400);
    return c.json(errorBody('BAD_REQUEST', message), 400);
  }
  if (err instanceof SyntaxError) return c.json(errorBody('INVALID_JSON', 'the body is not JSON', await notJsonAt(c)), 400);
  if (isDatabaseUnavailable(err)) {
    return c.json(errorBody('DATABASE_UNAVAILABLE', 'the database does not answer: nothing was decided or written; retry'), 503);
  }
  return c.json(errorBody('INTERNAL', 'the server could not answer this request'), 500);
}

/**
 * Where a body that is not JSON stops being JSON, as `{line, column}` (1-based), for the error's details:
 * the engine's JSON reader places it. Only an error pays for it: the body's text is the one the reader
 * read (Hono keeps it), read again.
 */
async function notJsonAt(c: Context): Promise<{ line: number; column: number } | undefined> {
  const text = await c.req.text().catch(() => undefined);
  if (text === undefined) return undefined;
  const read = readJsonText(text);
  const d = read.ok ? undefined : read.diagnostic;
  return d?.line !== undefined ? { line: d.line, column: d.column ?? 1 } : undefined;
}
