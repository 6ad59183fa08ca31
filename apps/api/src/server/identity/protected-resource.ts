// What a client reads before it has a token (docs/security.md, "Signing in through an identity provider"): the
// OAuth 2.0 Protected Resource Metadata of this Tollgate and of /mcp (RFC 9728, as the MCP authorization
// specification asks), the issuers the console may sign in with, and the challenge every 401 carries.
import { Hono, type MiddlewareHandler } from 'hono';
import { errorAnswer } from '../errors.ts';
import { onlyDeclaredQuery } from '../openapi.ts';
import type { IdentityConfig } from './identity-config.ts';

export const METADATA_PATH = '/.well-known/oauth-protected-resource';

/** The metadata of `resource` (RFC 9728, 2): its identifier, the issuers whose tokens it takes, a bearer in the header. */
export function protectedResourceMetadata(config: IdentityConfig, resource: string) {
  return {
    resource,
    authorization_servers: config.issuers.map((i) => i.issuer),
    bearer_methods_supported: ['header'],
    resource_name: 'Tollgate',
  };
}

/**
 * The origins the console's sign-in fetches from: each issuer with a console block, for the Content-Security-Policy's
 * connect-src (security-headers.ts). Endpoints on another origin than the issuer's are not covered (docs/security.md).
 *
 * @example
 * consoleOrigins(config) // ['https://idp.example.com']
 */
export function consoleOrigins(config: IdentityConfig | undefined): string[] {
  return [...new Set((config?.issuers ?? []).filter((i) => i.console).map((i) => new URL(i.issuer).origin))];
}

/**
 * The WWW-Authenticate of a 401 (RFC 6750, 3; RFC 9728, 5.1): where the metadata is, and `invalid_token` when a
 * bearer was sent and refused. Without an identity configuration, the plain `Bearer` of a key.
 *
 * @example
 * challengeOf(config, true) // 'Bearer resource_metadata="https://tg.example.com/.well-known/oauth-protected-resource/mcp", error="invalid_token"'
 */
export function challengeOf(config: IdentityConfig | undefined, bearerSent: boolean): string {
  if (!config) return 'Bearer';
  const metadata = `resource_metadata="${config.resource}${METADATA_PATH}/mcp"`;
  return bearerSent ? `Bearer ${metadata}, error="invalid_token"` : `Bearer ${metadata}`;
}

/** Sets the identity's challenge on every 401, whoever answered it (a key's refusal, a token's, /mcp's). */
export function identityChallenge(config: IdentityConfig): MiddlewareHandler {
  return async function challengeUnauthorized(c, next) {
    await next();
    if (c.res.status !== 401) return;
    const bearerSent = /^Bearer\s+\S/i.test(c.req.header('authorization') ?? '');
    c.res.headers.set('WWW-Authenticate', challengeOf(config, bearerSent));
  };
}

/**
 * The public identity routes: the metadata at both well-known paths (NO_ROUTE without an identity
 * configuration, since nothing there could issue a token) and GET /v1/identity/issuers (an empty list then).
 *
 * @example
 * app.route('/', identityRoutes(config));
 */
export function identityRoutes(config: IdentityConfig | undefined) {
  const app = new Hono();
  const noQuery = onlyDeclaredQuery(new Set());
  const metadata = (resource: (config: IdentityConfig) => string) =>
    config
      ? (c: Parameters<MiddlewareHandler>[0]) => c.json(protectedResourceMetadata(config, resource(config)))
      : (c: Parameters<MiddlewareHandler>[0]) => errorAnswer(c, 'NO_ROUTE', `no route for ${c.req.method} ${c.req.path}`);
  app.get(
    METADATA_PATH,
    noQuery,
    metadata((cfg) => cfg.resource),
  );
  app.get(
    `${METADATA_PATH}/mcp`,
    noQuery,
    metadata((cfg) => cfg.mcpResource),
  );
  app.get('/v1/identity/issuers', noQuery, (c) => {
    const issuers = (config?.issuers ?? []).flatMap((i) =>
      i.console ? [{ issuer: i.issuer, client_id: i.console.clientId, scopes: i.console.scopes }] : [],
    );
    c.header('Cache-Control', 'no-store');
    return c.json({ issuers });
  });
  return app;
}
