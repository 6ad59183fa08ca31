// The headers every answer of an authenticated /v1 route carries (docs/api.md, "Headers"), set in one
// place whatever answered (a route, a refusal in middleware, the error handler): `Cache-Control: no-store`
// (answers carry arguments, keys and drafts no cache should keep), `WWW-Authenticate: Bearer` on a 401 and
// `Retry-After` on a 503 or 429, so a client knows how to authenticate or when to try again.
import type { MiddlewareHandler } from 'hono';
import { type HeaderRecord, isPreparedAnswer, offerAnswerHeaders } from './answer-headers.ts';
import { CHALLENGE } from './auth.ts';

/** Seconds a client waits before retrying a 503 or 429 that did not say (a busy store says its own). */
export const DEFAULT_RETRY_AFTER_SECONDS = 1;

/** What apiHeaders gives every answer of an authenticated route (the gate's direct lane too, gate/direct-lane.ts). */
export const NO_STORE: HeaderRecord = Object.freeze({ 'cache-control': 'no-store' });

export const apiHeaders: MiddlewareHandler = async function setApiHeaders(c, next) {
  // Offered for an answer a route prepares whole (answer-headers.ts): a prepared answer is a 200.
  offerAnswerHeaders(c, NO_STORE);
  await next();
  if (isPreparedAnswer(c.res)) return;
  const headers = c.res.headers;
  headers.set('Cache-Control', 'no-store');
  const status = c.res.status;
  if (status === 401 && !headers.has('WWW-Authenticate')) headers.set('WWW-Authenticate', CHALLENGE['WWW-Authenticate']);
  if ((status === 503 || status === 429) && !headers.has('Retry-After')) headers.set('Retry-After', String(DEFAULT_RETRY_AFTER_SECONDS));
};
