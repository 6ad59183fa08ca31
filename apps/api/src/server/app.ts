// The Hono app: the API under /v1 (every route but health behind a bearer key, bodies at most 1 MiB),
// its OpenAPI description and reference page, and the built console.
import { existsSync, readFileSync } from 'node:fs';
import { join, normalize, sep } from 'node:path';
import { DAMAGE_CODES } from '@tollgate/store';
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { apiHeaders } from './api-headers.ts';
import { bearerAuth } from './auth.ts';
import { bodyLimit, bodyLimitOf, MAX_EDIT_BODY_BYTES, MAX_REQUEST_BODY_BYTES } from './body-limit.ts';
import { consoleMissingPage } from './console-missing-page.ts';
import type { AppContext } from './context.ts';
import { crossOrigin } from './cross-origin.ts';
import { errorAnswer, handleError } from './errors.ts';
import { exactJsonBody } from './exact-body.ts';
import { type Drain, liveAnswer, readyAnswer } from './health/readiness.ts';
import type { Identity } from './identity/identity.ts';
import { identityChallenge, identityRoutes } from './identity/protected-resource.ts';
import { type McpRouteOptions, mcpRoute } from './mcp/mcp-route.ts';
import { metricsRoute } from './observability/metrics-route.ts';
import { onlyDeclaredQuery, router } from './openapi.ts';
import { finishDocument, type OpenApiDocument } from './openapi-document.ts';
import { referencePage } from './reference-page.ts';
import { approvalRoutes } from './routes/approvals.ts';
import { credentialRoutes } from './routes/credentials.ts';
import { decisionReceiptRoutes } from './routes/decision-receipt.ts';
import { decisionRoutes } from './routes/decisions.ts';
import { documentRoutes } from './routes/documents.ts';
import { eventRoutes } from './routes/events.ts';
import { gateRoutes } from './routes/gate.ts';
import { keyRoutes } from './routes/keys.ts';
import { mcpImportRoutes } from './routes/mcp-import.ts';
import { memberRoutesManaged } from './routes/member-changes.ts';
import { memberRoutes } from './routes/members.ts';
import { nodeRoutes } from './routes/nodes.ts';
import { policyRoutes } from './routes/policies.ts';
import { policyDiffRoutes } from './routes/policy-diff.ts';
import { policyTemplateRoutes } from './routes/policy-templates.ts';
import { reviewRoutes } from './routes/review.ts';
import { ruleRoutes } from './routes/rules.ts';
import { rulesetRoutes } from './routes/rulesets.ts';
import { shadowRoutes } from './routes/shadows.ts';
import { simulationRoutes } from './routes/simulations.ts';
import { toolBindingRoutes } from './routes/tool-bindings.ts';
import { trialRoutes } from './routes/trials.ts';
import { upstreamRoutes } from './routes/upstreams.ts';
import { type WebhookRouteOptions, webhookRoutes } from './routes/webhooks.ts';
import { ruleSheets } from './rule-sheets.ts';
import { securityHeaders } from './security-headers.ts';
import { asArrived } from './state/request-arrival.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  // Monaco's codicon font; with nosniff every file goes out with its own type.
  '.ttf': 'font/ttf',
};

const INFO =
  'Tollgate governs what AI agents do with their tools. Every route but health, this document and its reference page needs a bearer key; errors are `{"error": {"code", "message", "details"?}}` with a code from Error.code (docs/api.md).';

export interface AppOptions {
  /** The data folder's state; without it only health and the ctx-less compile route answer (rule-sheets.ts; tests of the engine routes). */
  ctx?: AppContext;
  /** The built console (apps/web/dist); without it only the API answers. */
  webDist?: string;
  /** How long one rule of a rule set may take in a validate run (default 10 s). */
  ruleTimeoutMs?: number;
  /** The /mcp route's waits and session bounds (docs/mcp.md); its defaults unless given. */
  mcp?: McpRouteOptions;
  /** Set by a stopping server (cli/commands/serve.ts): readiness fails `draining` (health/readiness.ts). */
  drain?: Drain;
  /** GET /metrics answers a keyless request from a loopback peer (serve's --metrics-loopback; metrics-route.ts). */
  metricsLoopback?: boolean;
  /** Bearer tokens from OpenID Connect issuers beside keys, and /mcp's metadata (serve's --identity; identity/). */
  identity?: Identity;
  /** Origins the console may fetch from besides its own, as an OpenID issuer's (security-headers.ts; none unless given). */
  connectSources?: readonly string[];
  /** Origins whose pages may call the API (serve's --cors-origin; cross-origin.ts); none unless given. */
  corsOrigins?: readonly string[];
  /** `X-Forwarded-Proto: https` counts as TLS for HSTS (serve's --trust-forwarded-proto; security-headers.ts). */
  trustForwardedProto?: boolean;
  /** The relying party id passkeys are bound to (serve's --rp-id; approvals/passkeys.ts); the console's host unless given. */
  rpId?: string;
  /** Where webhook URLs may point (docs/webhooks.md); the operator's environment unless given. */
  webhooks?: WebhookRouteOptions;
}

// A path no route answers is not a missing resource: NO_ROUTE, never NOT_FOUND (docs/api.md).
const noRoute = (c: Context) => errorAnswer(c, 'NO_ROUTE', `no route for ${c.req.method} ${c.req.path}`);

const tooLarge = (limit: number) => (c: Context) => errorAnswer(c, 'TOO_LARGE', `the body is over ${limit} bytes`);

/**
 * One middleware for every route, another for the edit route's larger body (body-limit.ts, bodyLimitOf), so
 * an edit over the document limit reaches the edit seam and is answered as its outcome.
 */
function byRoute(make: (limit: number) => MiddlewareHandler): MiddlewareHandler {
  const forLimit = new Map([MAX_REQUEST_BODY_BYTES, MAX_EDIT_BODY_BYTES].map((limit) => [limit, make(limit)]));
  return function limitedByRoute(c, next) {
    return (forLimit.get(bodyLimitOf(c.req.method, c.req.path)) as MiddlewareHandler)(c, next);
  };
}

/** Builds the app. */
export function createApp(options: AppOptions = {}): Hono {
  const app = new Hono();
  app.onError(handleError);
  // First, so every answer carries them: a route's, a refusal's, the error handler's, not-found's, the console's.
  app.use(
    '*',
    securityHeaders({ connectSources: options.connectSources ?? [], trustForwardedProto: options.trustForwardedProto === true }),
  );
  app.use('*', crossOrigin(options.corsOrigins ?? []));
  const ctx = options.ctx;
  // On a shared database a request's reads of the generation counters are shared by arrival
  // (state/request-arrival.ts); SQLite reads its counters in the process and needs no numbering.
  if (ctx?.state.kind === 'postgres') app.use('*', (_c, next) => asArrived(next));
  // Degraded, with each damaged file named, while the store holds damage (docs/store.md, "Faults"); it reads
  // only what the store already found, so it answers at once even while a write waits for the lock.
  // The public routes take no query, as every described route refuses what it does not declare.
  const noQuery = onlyDeclaredQuery(new Set());
  app.get('/v1/health', noQuery, (c) => {
    const damage = ctx ? ctx.store.problems().filter((p) => DAMAGE_CODES.includes(p.code)) : [];
    if (damage.length === 0) return c.json({ status: 'ok' });
    return c.json({ status: 'degraded', problems: damage.map((p) => ({ id: p.id, code: p.code, message: p.message })) });
  });
  app.get('/v1/health/live', noQuery, liveAnswer);
  app.get('/v1/health/ready', noQuery, (c) => readyAnswer(c, ctx, options.drain));
  // Every 401 names the metadata (RFC 9728, 5.1); the metadata and the console's issuers need no key.
  if (options.identity) app.use('*', identityChallenge(options.identity.config));
  app.route('/', identityRoutes(options.identity?.config));
  if (!ctx) {
    app.route('/v1/rule-sheets', ruleSheets);
  } else {
    const api = router();
    api.use('*', apiHeaders);
    api.use(
      '*',
      byRoute((limit) => bodyLimit({ maxSize: limit, onError: tooLarge(limit) })),
    );
    api.use('*', bearerAuth(ctx, options.identity));
    // The gate reads its own body with the same exact reader (call-request.ts), so it is mounted before
    // the middleware that reads every other route's: its answer ends the chain before the middleware runs.
    api.route('/', gateRoutes());
    api.use(
      '*',
      byRoute((limit) => exactJsonBody({ maxBytes: limit })),
    );
    api.route('/', ruleRoutes());
    api.route('/', policyRoutes());
    api.route('/', policyDiffRoutes());
    api.route('/', policyTemplateRoutes());
    api.route('/', documentRoutes());
    api.route('/', approvalRoutes({ rpId: options.rpId }));
    api.route('/', credentialRoutes({ rpId: options.rpId }));
    api.route('/', memberRoutes());
    api.route('/', memberRoutesManaged());
    api.route('/', keyRoutes());
    api.route('/', eventRoutes());
    api.route('/', simulationRoutes());
    api.route('/', trialRoutes());
    api.route('/', shadowRoutes());
    api.route('/', decisionRoutes());
    api.route('/', decisionReceiptRoutes());
    api.route('/', rulesetRoutes(options.ruleTimeoutMs === undefined ? {} : { ruleTimeoutMs: options.ruleTimeoutMs }));
    api.route('/', toolBindingRoutes());
    api.route('/', upstreamRoutes());
    api.route('/', mcpImportRoutes());
    api.route('/', reviewRoutes());
    api.route('/', nodeRoutes());
    api.route('/', webhookRoutes(options.webhooks ?? {}));
    const doc = finishDocument(
      api.getOpenAPI31Document({
        openapi: '3.1.0',
        info: { title: 'Tollgate API', version: '1', description: INFO },
        servers: [{ url: '/v1' }],
      }) as unknown as OpenApiDocument,
    );
    app.get('/v1/openapi.json', noQuery, (c) => c.json(doc));
    app.get('/v1/reference', noQuery, (c) => c.html(referencePage(doc)));
    app.route('/v1', api);
    // MCP's Streamable HTTP (docs/mcp.md): JSON-RPC, so outside /v1 and its error shape.
    app.route('/mcp', mcpRoute(ctx, { ...options.mcp, ...(options.identity ? { identity: options.identity } : {}) }));
    // Prometheus' text format at its usual path, for an owner's, an admin's or a `metrics` key (docs/deploy.md).
    app.route('/metrics', metricsRoute(ctx, { loopbackWithoutKey: options.metricsLoopback === true }));
  }
  app.notFound(noRoute);
  const dist = options.webDist;
  if (dist && existsSync(join(dist, 'index.html'))) {
    app.get('*', (c) => {
      // An API path no route answers is a 404, never the console's page.
      if (c.req.path === '/v1' || c.req.path.startsWith('/v1/')) {
        return noRoute(c);
      }
      const path = c.req.path === '/' ? '/index.html' : c.req.path;
      const file = normalize(join(dist, path));
      // Never serve outside the dist folder; unknown paths get the app shell (client-side routes).
      const target = file.startsWith(dist + sep) && existsSync(file) && !file.endsWith(sep) ? file : join(dist, 'index.html');
      const ext = target.slice(target.lastIndexOf('.'));
      try {
        return c.body(readFileSync(target), 200, { 'content-type': TYPES[ext] ?? 'application/octet-stream' });
      } catch {
        return c.body(readFileSync(join(dist, 'index.html')), 200, { 'content-type': TYPES['.html'] as string });
      }
    });
  }
  if (dist && !existsSync(join(dist, 'index.html'))) app.get('*', consoleMissingPage);
  return app;
}
