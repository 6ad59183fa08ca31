// GET /metrics: this app's Prometheus metrics (observability/metrics.ts) in the text format, for an owner's or an
// admin's key or a key with the `metrics` grant (docs/deploy.md, "Metrics and traces"). Outside /v1 and its
// OpenAPI document, as /mcp is: Prometheus' own path and format, not a JSON resource of the API.
import { Hono } from 'hono';
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

/**
 * The /metrics route for an app over `ctx`; 401 without a known key, 403 GRANT_REQUIRED for a key that may not.
 *
 * @example
 * app.route('/metrics', metricsRoute(ctx))
 */
export function metricsRoute(ctx: AppContext) {
  const app = new Hono<Env>();
  app.use('*', bearerAuth(ctx));
  app.get('/', onlyDeclaredQuery(new Set()), async (c) => {
    if (!maySeeMetrics(c.get('principal'))) {
      throw new ApiError('GRANT_REQUIRED', 'this needs the role owner or admin, or a key with the metrics grant');
    }
    const registry = ctx.metrics.registry;
    return c.body(await registry.metrics(), 200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
  });
  return app;
}
