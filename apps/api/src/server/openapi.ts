// The OpenAPI plumbing every route module shares: an OpenAPIHono whose validation failures become a 400
// saying which part of the request is wrong, with the zod issues as details (paths as JSON Pointers), and
// whose every route refuses what its description does not allow before any handler runs: a query parameter
// the route does not declare, a path parameter that is not percent-encoded UTF-8, and a missing body where the
// route declares one required (docs/api.md).
import { OpenAPIHono, type RouteConfig, z } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import type { Env } from './auth.ts';
import { errorAnswer, errorBody } from './errors.ts';

interface Issue {
  path: readonly PropertyKey[];
  code: string;
  message: string;
  /** A custom issue's own code (route-kit.ts's ArgumentsObject says `too_deep`). */
  params?: { code?: unknown };
}

const pointerOf = (path: readonly PropertyKey[]) =>
  path.length === 0 ? '' : `/${path.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;

/** The refusal of a failed validation of the body (default), a path parameter or the query: code, message, issues. */
function validationFault(issues: readonly Issue[], target?: string) {
  const details = issues.map((i) => ({
    path: pointerOf(i.path),
    code: i.code === 'custom' && typeof i.params?.code === 'string' ? i.params.code : i.code,
    message: i.message,
  }));
  // A path parameter that fails its schema can never name a resource: INVALID_ID, as the store says of an id.
  const code = target === 'param' ? 'INVALID_ID' : target === 'query' ? 'INVALID_QUERY' : 'INVALID_BODY';
  const what = target === 'param' ? 'the path' : target === 'query' ? 'the query' : 'the body';
  const first = details[0];
  return {
    code,
    message: first ? `${first.path || what}: ${first.message}` : `${what} is not valid`,
    details: { issues: details },
  } as const;
}

/** The error body for failed validation of the body (default), a path parameter or the query. */
export function validationError(issues: readonly Issue[], target?: string) {
  const { code, message, details } = validationFault(issues, target);
  return errorBody(code, message, details);
}

/** The error answer for failed validation, with the status its code has (400). */
export function validationAnswer(c: Context, issues: readonly Issue[], target?: string) {
  const { code, message, details } = validationFault(issues, target);
  return errorAnswer(c, code, message, details);
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
    const refused = unknownQueryAnswer(c, allowed);
    if (refused) return refused;
    await next();
  };
}

/** onlyDeclaredQuery's check, for a handler that makes it itself (the gate's, which spares its hot path a middleware). */
export function unknownQueryAnswer(c: Context, allowed: ReadonlySet<string>): Response | undefined {
  const url = c.req.url;
  const at = url.indexOf('?');
  if (at !== -1 && at < url.length - 1) {
    for (const name of new URLSearchParams(url.slice(at + 1)).keys()) {
      if (!allowed.has(name)) {
        const message = `unknown query parameter ${JSON.stringify(name)}`;
        return validationAnswer(c, [{ path: [name], code: 'unrecognized_keys', message }], 'query');
      }
    }
  }
  return undefined;
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
  if (hasNoBody((name) => c.req.header(name))) return errorAnswer(c, 'INVALID_BODY', 'a body is required');
  await next();
};

/**
 * Refuses a path parameter that is not valid percent-encoded UTF-8 (`%E0%A4%A`), naming it (400 INVALID_ID):
 * the router would hand the handler its raw text, an id no client meant. A parameter is one segment of the
 * raw path (none matches a `/`), so the template's segments are the path's last ones.
 *
 * @example
 * undecodablePathParams('/trials/{document}') // a middleware refusing /v1/trials/%E0%A4%A
 */
export function undecodablePathParams(template: string): MiddlewareHandler {
  const check = undecodablePathCheck(template);
  return async function refuseUndecodable(c, next) {
    const refused = check(c);
    if (refused) return refused;
    await next();
  };
}

/** undecodablePathParams's check, for a handler that makes it itself: the refusal, or undefined. */
export function undecodablePathCheck(template: string): (c: Context) => Response | undefined {
  const segments = template.split('/');
  return function undecodableAnswer(c) {
    const url = c.req.url;
    if (!url.includes('%')) return undefined;
    const start = url.indexOf('/', url.indexOf('://') + 3);
    const end = url.search(/[?#]/);
    const raw = url.slice(start, end === -1 ? undefined : end).split('/');
    const offset = raw.length - segments.length;
    for (let i = 0; i < segments.length; i++) {
      const name = /^\{(.+)\}$/.exec(segments[i] as string)?.[1];
      if (name === undefined || offset < 0) continue;
      try {
        decodeURIComponent(raw[offset + i] as string);
      } catch {
        const message = 'not valid percent-encoded UTF-8';
        return validationAnswer(c, [{ path: [name], code: 'invalid_format', message }], 'param');
      }
    }
    return undefined;
  };
}

/**
 * Refuses path parameters that fail their schema (400 INVALID_ID) before the query and the body are judged:
 * an id that can never name a resource is the first thing wrong with a request (docs/api.md, "One vocabulary").
 */
function validPathParams(schema: z.ZodType): MiddlewareHandler {
  return async function refuseBadParams(c, next) {
    const result = schema.safeParse(c.req.param());
    if (!result.success) return validationAnswer(c, result.error.issues, 'param');
    await next();
  };
}

/** The checks every route gets from its description, after its own middleware (role checks come first). */
function describedChecks(route: RouteConfig): MiddlewareHandler[] {
  const checks: MiddlewareHandler[] = [];
  if (route.path.includes('{')) checks.push(undecodablePathParams(route.path));
  const params = route.request?.params;
  if (params instanceof z.ZodType) checks.push(validPathParams(params));
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
      return validationAnswer(c, result.error.issues, (result as { target?: string }).target);
    },
  });
  const register = app.openapi;
  app.openapi = ((route: RouteConfig, ...rest: unknown[]) => {
    const own = route.middleware === undefined ? [] : Array.isArray(route.middleware) ? route.middleware : [route.middleware];
    return (register as (...args: unknown[]) => unknown)({ ...route, middleware: [...own, ...describedChecks(route)] }, ...rest);
  }) as typeof app.openapi;
  return app;
}
