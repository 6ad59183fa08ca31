// The OpenAPI plumbing every route module shares: an OpenAPIHono whose validation failures become a 400
// saying which part of the request is wrong, with the zod issues as details (paths as JSON Pointers).
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Env } from './auth.ts';
import { errorBody } from './errors.ts';

interface Issue {
  path: readonly PropertyKey[];
  code: string;
  message: string;
  /** A custom issue's own code (route-kit.ts's ArgumentsObject says `too_deep`). */
  params?: { code?: unknown };
}

/** The error body for failed validation of the body (default), a path parameter or the query. */
export function validationError(issues: readonly Issue[], target?: string) {
  const details = issues.map((i) => ({
    path: i.path.length === 0 ? '' : `/${i.path.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`,
    code: i.code === 'custom' && typeof i.params?.code === 'string' ? i.params.code : i.code,
    message: i.message,
  }));
  const code = target === 'param' ? 'INVALID_PATH' : target === 'query' ? 'INVALID_QUERY' : 'INVALID_BODY';
  const what = target === 'param' ? 'the path' : target === 'query' ? 'the query' : 'the body';
  const first = details[0];
  return errorBody(code, first ? `${first.path || what}: ${first.message}` : `${what} is not valid`, { issues: details });
}

/** A router whose routes are described in /v1/openapi.json. */
export function router(): OpenAPIHono<Env> {
  return new OpenAPIHono<Env>({
    defaultHook: (result, c) => {
      if (result.success) return;
      return c.json(validationError(result.error.issues, (result as { target?: string }).target), 400);
    },
  });
}
