// The headers every answer carries, whatever answered (a console page, an asset, /v1, /mcp, /metrics, an error,
// a 404): a Content-Security-Policy that lets the console run only its own code and never be framed, and the
// headers older browsers need for the same (docs/security.md, "Headers and cross-origin requests").
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { Context, MiddlewareHandler } from 'hono';
import { type HeaderRecord, isPreparedAnswer, offerAnswerHeaders } from './answer-headers.ts';
import { readOrigin } from './origin.ts';

export interface SecurityHeadersOptions {
  /**
   * Origins the console may fetch from besides its own (`connect-src`), each exactly `scheme://host[:port]`: an
   * OpenID issuer's, whose discovery and token endpoints the console's sign-in calls. None unless given.
   */
  connectSources?: readonly string[];
  /**
   * Whether `X-Forwarded-Proto: https` says the request arrived over TLS (serve's --trust-forwarded-proto): true only
   * behind a proxy that sets the header itself, as any client can send it.
   */
  trustForwardedProto?: boolean;
}

/** One year: the usual `max-age` for a site that serves only HTTPS. */
export const HSTS = 'max-age=31536000';

/**
 * The policy, one directive a source: everything from this origin only, and nothing framing it.
 * style-src has 'unsafe-inline' because Monaco, the console's editor, writes `<style>` elements at run time (its
 * theme's colours, decorations) and `style="..."` attributes in the markup it renders (each line's position); no
 * nonce or hash reaches either. Scripts stay 'self' only, and images and fonts 'self' (data: for the images Monaco's
 * stylesheet inlines), so an injected style can neither run code nor load anything from elsewhere.
 * Example: `contentSecurityPolicy(['https://idp.example.com'])`.
 */
export function contentSecurityPolicy(connectSources: readonly string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "worker-src 'self'",
    ["connect-src 'self'", ...connectSources].join(' '),
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "object-src 'none'",
    "form-action 'self'",
  ].join('; ');
}

/**
 * Whether the request came over TLS: the socket's own word when Node's server answered (an absolute request
 * target's scheme is the client's say), else the URL's scheme (another runtime, or `app.request` in tests), or
 * with `trustForwardedProto` the proxy's `X-Forwarded-Proto` (its first value, the one nearest the client).
 */
export function arrivedOverTls(c: Context, trustForwardedProto: boolean): boolean {
  if (trustForwardedProto && forwardedOverTls(c.req.header('x-forwarded-proto'))) return true;
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming?.socket) return incomingOverTls(incoming, false);
  return new URL(c.req.url).protocol === 'https:';
}

/** Whether `X-Forwarded-Proto` says https: its first value, the one nearest the client. */
function forwardedOverTls(header: string | undefined): boolean {
  return header?.split(',')[0]?.trim().toLowerCase() === 'https';
}

/** arrivedOverTls for a request node:http is serving: the socket's word, or with `trustForwardedProto` the proxy's. */
export function incomingOverTls(incoming: IncomingMessage, trustForwardedProto: boolean): boolean {
  if (trustForwardedProto) {
    const forwarded = incoming.headers['x-forwarded-proto'];
    if (forwardedOverTls(Array.isArray(forwarded) ? forwarded.join(',') : forwarded)) return true;
  }
  return (incoming.socket as Partial<TLSSocket> | null)?.encrypted === true;
}

/**
 * The headers securityHeaders gives every answer, as records made once (answer-headers.ts): over plain HTTP, and
 * over TLS (with Strict-Transport-Security). The gate's direct lane (gate/direct-lane.ts) answers with the same.
 */
export function securityHeaderRecords(connectSources: readonly string[] = []): { plain: HeaderRecord; overTls: HeaderRecord } {
  const sources = connectSources.map((text) => {
    const origin = readOrigin(text);
    if (!origin.ok) throw new Error(`connectSources: ${origin.reason}`);
    return origin.origin;
  });
  const plain: HeaderRecord = Object.freeze({
    'content-security-policy': contentSecurityPolicy(sources),
    'cross-origin-opener-policy': 'same-origin',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
  });
  return { plain, overTls: Object.freeze({ ...plain, 'strict-transport-security': HSTS }) };
}

/**
 * The headers of every answer; mounted first in app.ts, so it sees the answer of the error handler and of not-found too.
 * Example: `app.use('*', securityHeaders({ connectSources: ['https://idp.example.com'] }))`.
 */
export function securityHeaders(options: SecurityHeadersOptions = {}): MiddlewareHandler {
  const { plain, overTls } = securityHeaderRecords(options.connectSources);
  const policy = plain['content-security-policy'] as string;
  const trustForwardedProto = options.trustForwardedProto === true;
  return async function setSecurityHeaders(c, next) {
    const tls = arrivedOverTls(c, trustForwardedProto);
    // The same headers, offered for an answer a route prepares whole (answer-headers.ts).
    offerAnswerHeaders(c, tls ? overTls : plain);
    await next();
    if (isPreparedAnswer(c.res)) return;
    const headers = c.res.headers;
    headers.set('Content-Security-Policy', policy);
    headers.set('X-Frame-Options', 'DENY');
    headers.set('X-Content-Type-Options', 'nosniff');
    headers.set('Referrer-Policy', 'no-referrer');
    headers.set('Cross-Origin-Opener-Policy', 'same-origin');
    if (tls) headers.set('Strict-Transport-Security', HSTS);
  };
}
