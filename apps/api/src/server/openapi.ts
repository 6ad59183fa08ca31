// The OpenAPI plumbing every route module shares: an OpenAPIHono whose validation failures become a 400
// saying which part of the request is wrong, with the zod issues as details (paths as JSON Pointers), and
// whose every route refuses what its description does not allow before any handler runs: a query parameter
// the route does not declare, and a missing body where the route declares one required (docs/api.md).
import { OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { Env } from './auth.ts';
import { errorBody } from './errors.ts';

interface Issue {
  path: readonly PropertyKey[];
  code: string;
  message: string;
  /** A custom issue's own code (route-kit.ts's ArgumentsObject says `too_deep`). */
  params?: { code?: unknown };
}

const pointerOf = (path: readonly PropertyKey[]) =>
  path.length === 0 ? '' : `/${path.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;

/** The error body for failed validation of the body (default), a path parameter or the query. */
export function validationError(issues: readonly Issue[], target?: string) {
  const details = issues.map((i) => ({
    path: pointerOf(i.path),
    code: i.code === 'custom' && typeof i.params?.code === 'string' ? i.params.code : i.code,
    message: i.message,
  }));
  // A path parameter that fails its schema can never name a resource: INVALID_ID, as the store says of an id.
  const code = target === 'param' ? 'INVALID_ID' : target === 'query' ? 'INVALID_QUERY' : 'INVALID_BODY';
  const what = target === 'param' ? 'the path' : target === 'query' ? 'the query' : 'the body';
  const first = details[0];
  return errorBody(code, first ? `${first.path || what}: ${first.message}` : `${what} is not valid`, { issues: details });
}

/** The query parameters a route declares: the keys of its `request.query` object (none when it declares none). */
function declaredQuery(route: RouteConfig): ReadonlySet<string> | undefined {
  const query = route.request?.query as { shape?: Record<string, unknown> } | undefined;
  if (query === undefined) return new Set();
  // A query schema that is not a plain object (none today) checks its own keys.
  return query.shape ? new Set(Object.keys(query.shape)) : undefined;
}

/** Refuses a query parameter the route does not declare, naming it (400 INVALID_QUERY). */
export function onlyDeclaredQuery(allowed: ReadonlySet<string>): MiddlewareHandler {
  return async function refuseUnknownQuery(c, next) {
    const url = c.req.url;
    const at = url.indexOf('?');
    if (at !== -1 && at < url.length - 1) {
      for (const name of new URLSearchParams(url.slice(at + 1)).keys()) {
        if (!allowed.has(name)) {
          const message = `unknown query parameter ${JSON.stringify(name)}`;
          return c.json(validationError([{ path: [name], code: 'unrecognized_keys', message }], 'query'), 400);
        }
      }
    }
    await next();
  };
}

/**
 * Whether the request has no body: no length and no transfer encoding (an HTTP/1.1 request without either
 * has none), or a length of 0. A chunked body is judged by the route's reader.
 */
export function hasNoBody(header: (name: string) => string | undefined): boolean {
  const length = header('content-length');
  if (length === undefined) return header('transfer-encoding') === undefined;
  return /^0+$/.test(length);
}

/** Refuses a request without a body where the route requires one (400 INVALID_BODY). */
const bodyRequired: MiddlewareHandler = async function requireBody(c, next) {
  if (hasNoBody((name) => c.req.header(name))) return c.json(errorBody('INVALID_BODY', 'a body is required'), 400);
  await next();
};

/** The checks every route gets from its description, after its own middleware (role checks come first). */
function describedChecks(route: RouteConfig): MiddlewareHandler[] {
  const checks: MiddlewareHandler[] = [];
  const query = declaredQuery(route);
  if (query) checks.push(onlyDeclaredQuery(query));
  if (route.request?.body?.required) checks.push(bodyRequired);
  return checks;
}

/** A router whose routes are described in /v1/openapi.json and held to that description. */
export function router(): OpenAPIHono<Env> {
  const app = new OpenAPIHono<Env>({
    defaultHook: (result, c) => {
      if (result.success) return;
      return c.json(validationError(result.error.issues, (result as { target?: string }).target), 400);
    },
  });
  const register = app.openapi;
  app.openapi = ((route: RouteConfig, ...rest: unknown[]) => {
    const own = route.middleware === undefined ? [] : Array.isArray(route.middleware) ? route.middleware : [route.middleware];
    return (register as (...args: unknown[]) => unknown)({ ...route, middleware: [...own, ...describedChecks(route)] }, ...rest);
  }) as typeof app.openapi;
  return app;
}
