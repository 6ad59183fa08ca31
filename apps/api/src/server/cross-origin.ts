// Cross-origin requests (CORS) for the origins an operator lists (serve's --cors-origin), and for no other: a
// request from a listed origin gets hono/cors' answer, preflight included; any other request passes through as if
// no CORS were configured, so it never carries Access-Control-Allow-Origin (docs/security.md, "Headers and
// cross-origin requests"). Keys travel in `Authorization`, never in cookies, so credentials are never allowed.
import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { refusePreparedAnswers } from './answer-headers.ts';
import { readOrigin } from './origin.ts';

/** What a page on a listed origin may send: the key, a JSON body, a revision precondition, MCP's session, a trace. */
export const CORS_REQUEST_HEADERS = [
  'Authorization',
  'Content-Type',
  'If-Match',
  'Mcp-Session-Id',
  'Mcp-Protocol-Version',
  'Last-Event-ID',
  'traceparent',
  'tracestate',
];

/** What it may read of an answer beyond the safelisted headers. */
export const CORS_RESPONSE_HEADERS = ['ETag', 'Location', 'Retry-After', 'WWW-Authenticate', 'Mcp-Session-Id'];

/**
 * The origins an operator listed, each as a request's Origin header states it (`scheme://host[:port]`); throws on
 * one that is no origin. The gate's direct lane (gate/direct-lane.ts) tells listed origins by this very set.
 */
export function listedOrigins(origins: readonly string[]): ReadonlySet<string> {
  return new Set(
    origins.map((text) => {
      const origin = readOrigin(text);
      if (!origin.ok) throw new Error(`cors origins: ${origin.reason}`);
      return origin.origin;
    }),
  );
}

/**
 * CORS for exactly `origins` (each `scheme://host[:port]`, checked here once); with none, a middleware that only
 * passes the request on. Example: `app.use('*', crossOrigin(['https://ops.example.com']))`.
 */
export function crossOrigin(origins: readonly string[]): MiddlewareHandler {
  const listed = listedOrigins(origins);
  const answer = cors({
    origin: (origin) => (listed.has(origin) ? origin : null),
    allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowHeaders: CORS_REQUEST_HEADERS,
    exposeHeaders: CORS_RESPONSE_HEADERS,
    maxAge: 600,
  });
  return async function answerCrossOrigin(c, next) {
    // Its headers depend on the request: no answer is prepared whole (answer-headers.ts) where origins are listed.
    if (listed.size > 0) refusePreparedAnswers(c);
    const origin = c.req.header('origin');
    if (origin !== undefined && listed.has(origin)) return answer(c, next);
    await next();
    // An answer that depends on Origin says so, so a cache never hands one origin's answer to another.
    if (listed.size > 0) c.res.headers.append('Vary', 'Origin');
  };
}
