// API errors: `{"error": {"code", "message", "details"?}}` with the status the registry gives the code
// (packages/engine/src/codes/api-codes.ts), so no answer restates it. Bad input never gets a 500 and never
// changes state; a bug gets a 500 without a stack trace.

import { API_CODES, type ApiCode } from '@tollgate/engine';
import { readJsonText } from '@tollgate/engine/source';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { jsonReadFailed } from './json-reads.ts';
import { isDatabaseUnavailable } from './state/unavailable.ts';

/**
 * An API error, built from its code: the status is the one API_CODES holds for it, so a code without one
 * does not compile and no call site can answer a code with another status.
 *
 * @example
 * throw new ApiError('NOT_FOUND', 'there is no template "x"', { resource: 'template' }); // 404
 */
export class ApiError extends Error {
  readonly status: ApiStatus;
  /** One of API_CODES (packages/engine/src/codes/api-codes.ts). */
  readonly code: ApiCode;
  readonly details: unknown;
  /** Response headers the error needs (`Retry-After` on a busy store). */
  readonly headers: Record<string, string> | undefined;
  constructor(code: ApiCode, message: string, details?: unknown, headers?: Record<string, string>) {
    super(message);
    this.status = API_CODES[code].status;
    this.code = code;
    this.details = details;
    this.headers = headers;
  }
}

/** The HTTP status an API code is answered with (API_CODES). */
export type ApiStatus = (typeof API_CODES)[ApiCode]['status'];

export function errorBody(code: ApiCode, message: string, details?: unknown) {
  return { error: details === undefined ? { code, message } : { code, message, details } };
}

/**
 * The error answer for `code` where a handler or middleware answers rather than throws: the one body, with
 * the registry's status for the code.
 *
 * @example
 * return errorAnswer(c, 'NO_ROUTE', `no route for ${c.req.method} ${c.req.path}`); // 404
 */
export function errorAnswer<C extends ApiCode>(c: Context, code: C, message: string, details?: unknown) {
  return c.json(errorBody(code, message, details), API_CODES[code].status as (typeof API_CODES)[C]['status']);
}

/** The app's one onError. */
export async function handleError(err: Error, c: Context) {
  if (err instanceof ApiError) return c.json(errorBody(err.code, err.message, err.details), err.status, err.headers);
  if (err instanceof HTTPException) {
    // Hono's own refusals (a media type, a body it cannot read) in the API's vocabulary, by their status; any
    // other is a 400.
    const message = err.message || 'the request cannot be read';
    if (err.status === 415) return errorAnswer(c, 'UNSUPPORTED_MEDIA_TYPE', message);
    if (err.status === 413) return errorAnswer(c, 'TOO_LARGE', message);
    // Hono's JSON validator could not read the body (json-reads.ts marks it), whatever its message says.
    if (jsonReadFailed(c)) return errorAnswer(c, 'INVALID_JSON', message, await notJsonAt(c));
    return errorAnswer(c, 'BAD_REQUEST', message);
  }
  if (err instanceof SyntaxError) return errorAnswer(c, 'INVALID_JSON', 'the body is not JSON', await notJsonAt(c));
  if (isDatabaseUnavailable(err)) {
    return errorAnswer(c, 'DATABASE_UNAVAILABLE', 'the database does not answer: nothing was decided or written; retry');
  }
  return errorAnswer(c, 'INTERNAL', 'the server could not answer this request');
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
