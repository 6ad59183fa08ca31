// GET /metrics: this app's Prometheus metrics (observability/metrics.ts) in the text format, for an owner's or an
// admin's key or a key with the `metrics` grant (docs/deploy.md, "Metrics and traces"). Outside /v1 and its
// OpenAPI document, as /mcp is: Prometheus' own path and format, not a JSON resource of the API. With
// `loopbackWithoutKey` (serve's --metrics-loopback), a request with no key from a loopback peer is answered too, so
// a scraper on the node's own host needs no key.
import { getConnInfo } from '@hono/node-server/conninfo';
import { type Context, Hono } from 'hono';
import { bearerAuth, type Env } from '../auth.ts';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { onlyDeclaredQuery } from '../openapi.ts';
import type { Principal } from '../state/members/model.ts';

/** Whether `principal` may scrape: an owner or an admin, or any key granted `metrics`. */
export function maySeeMetrics(principal: Principal): boolean {
  if (principal.grants.includes('metrics')) return true;
  return principal.kind === 'member' && (principal.member.role === 'owner' || principal.member.role === 'admin');
}

/** Whether `address` (a socket's remote address) is loopback: 127.0.0.0/8, ::1, or 127.x.x.x mapped into IPv6. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  return address === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/i.test(address);
}

/** The request's peer address; undefined when the app is not served by the node adapter (app.request in tests). */
function peerAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}

export interface MetricsRouteOptions {
  /** Answer a request that sends no key when its peer address is loopback (docs/deploy.md, "Metrics and traces"). */
  loopbackWithoutKey?: boolean;
}

/**
 * The /metrics route for an app over `ctx`; 401 without a known key, 403 GRANT_REQUIRED for a key that may not.
 * A key that is sent is always checked, loopback or not.
 *
 * @example
 * app.route('/metrics', metricsRoute(ctx))
 */
export function metricsRoute(ctx: AppContext, options: MetricsRouteOptions = {}) {
  const app = new Hono<Env>();
  const keyless = (c: Context) =>
    options.loopbackWithoutKey === true && c.req.header('authorization') === undefined && isLoopbackAddress(peerAddress(c));
  const auth = bearerAuth(ctx);
  app.use('*', (c, next) => (keyless(c) ? next() : auth(c, next)));
  app.get('/', onlyDeclaredQuery(new Set()), async (c) => {
    if (!keyless(c) && !maySeeMetrics(c.get('principal'))) {
      throw new ApiError('GRANT_REQUIRED', 'this needs the role owner or admin, or a key with the metrics grant');
    }
    const registry = ctx.metrics.registry;
    return c.body(await registry.metrics(), 200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
  });
  return app;
}
