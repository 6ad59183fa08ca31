// The body limit: a body over the limit is refused unread. A body with a length is judged by its content-length header
// (Node's parser holds the body to it), never by touching the request's body stream: that stream turns
// @hono/node-server's lightweight request into a full web Request and costs about 150 µs a call, more than the gate's
// decision (docs/performance.md, "Reading bodies exactly"). A chunked body has no length to judge, so Hono's bodyLimit
// counts it as it streams.

import { DEFAULT_MAX_DOCUMENT_BYTES } from '@tollgate/store';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit as countingBodyLimit } from 'hono/body-limit';

/**
 * The largest body of every request but an edit's (MAX_EDIT_BODY_BYTES): each API route's, a gate call's and an MCP
 * message at /mcp. The compile route of an app without a data folder takes more (rule-sheets.ts).
 */
export const MAX_REQUEST_BODY_BYTES = 1024 * 1024;

/**
 * The largest body of an edit (`POST /v1/documents/{id}/edits`): a document at the store's limit
 * (DEFAULT_MAX_DOCUMENT_BYTES, the edit seam's too) written as a JSON string, with room for its escapes,
 * so the seam, not the transport, answers a larger document: a `refused` outcome with TOO_LARGE. A body over
 * this is still 413 TOO_LARGE, unread (docs/documents.md, "Size limits").
 */
export const MAX_EDIT_BODY_BYTES = 2 * DEFAULT_MAX_DOCUMENT_BYTES + 64 * 1024;

/** The edit route, the one that takes MAX_EDIT_BODY_BYTES. */
const EDIT_PATH = /^\/v1\/documents\/[^/]+\/edits$/;

/**
 * The body limit of a request: MAX_EDIT_BODY_BYTES for an edit, MAX_REQUEST_BODY_BYTES for every other route.
 *
 * @example
 * bodyLimitOf('POST', '/v1/documents/policies%2Fa.policy.json/edits') // MAX_EDIT_BODY_BYTES
 */
export function bodyLimitOf(method: string, path: string): number {
  return method === 'POST' && EDIT_PATH.test(path) ? MAX_EDIT_BODY_BYTES : MAX_REQUEST_BODY_BYTES;
}

export interface BodyLimitOptions {
  /** The largest body accepted, in bytes. */
  maxSize: number;
  /** The answer to a body over the limit. */
  onError: (c: Context) => Response | Promise<Response>;
}

/**
 * Refuses bodies over `maxSize` bytes with `onError`'s answer.
 *
 * @example
 * app.use('*', bodyLimit({ maxSize: 1024 * 1024, onError: (c) => c.json({ error: 'too large' }, 413) }));
 */
export function bodyLimit(options: BodyLimitOptions): MiddlewareHandler {
  if (!Number.isSafeInteger(options.maxSize) || options.maxSize < 0) throw new Error('bodyLimit: maxSize is a whole number of bytes');
  const { maxSize, onError } = options;
  const counting = countingBodyLimit({ maxSize, onError });
  return async function limitBody(c, next) {
    if (c.req.header('transfer-encoding') !== undefined) return counting(c, next);
    const length = c.req.header('content-length');
    // Without a length or a transfer encoding an HTTP/1.1 request has no body.
    if (length === undefined) return next();
    if (!/^[0-9]+$/.test(length)) return counting(c, next);
    return Number(length) > maxSize ? onError(c) : next();
  };
}
