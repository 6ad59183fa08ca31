// The OpenAPI plumbing every route module shares: an OpenAPIHono whose validation failures become
// 400 INVALID_BODY with the zod issues as details (paths as JSON Pointers).
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Env } from './auth.ts';
import { errorBody } from './errors.ts';

/** A router whose routes are described in /v1/openapi.json. */
export function router(): OpenAPIHono<Env> {
  return new OpenAPIHono<Env>({
    defaultHook: (result, c) => {
      if (result.success) return;
      const issues = result.error.issues.map((i) => ({
        path: i.path.length === 0 ? '' : `/${i.path.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`,
        code: i.code,
        message: i.message,
      }));
      // Say which part of the request is wrong: the body, a path parameter or the query.
      const target = (result as { target?: string }).target;
      const code = target === 'param' ? 'INVALID_PATH' : target === 'query' ? 'INVALID_QUERY' : 'INVALID_BODY';
      const what = target === 'param' ? 'the path' : target === 'query' ? 'the query' : 'the body';
      return c.json(
        errorBody(code, issues[0] ? `${issues[0].path || what}: ${issues[0].message}` : `${what} is not valid`, { issues }),
        400,
      );
    },
  });
}
