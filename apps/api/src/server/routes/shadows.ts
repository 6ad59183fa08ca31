// Routes: shadows of rule files (docs/review.md, "Shadow runs of rule files"). A stored candidate version of a
// rule sheet or Colang policy is checked detect-only beside the running one on the gate's calls; each decision
// records the rules whose verdict it would change (GET /v1/decisions?shadow=differs). Consistent with trials:
// owners and admins start and stop, members read.
import { createRoute, z } from '@hono/zod-openapi';
import { router } from '../openapi.ts';
import type { RuleShadow } from '../shadows/rule-shadows.ts';
import { documentIdParam } from './path-params.ts';
import { ERRORS, errorResponse, jsonRequest, jsonResponse, LOCATION, members, notFound, people, storeErrorFor } from './route-kit.ts';

const ShadowSchema = z
  .object({
    document: z.string(),
    candidate: z.number().int().min(1),
    started_at: z.iso.datetime({ offset: true }),
    running: z.boolean(),
  })
  .openapi('Shadow');
const ShadowBody = z.strictObject({ document: z.string().min(1), sequence: z.number().int().positive() }).openapi('ShadowBody');
const DocumentParam = z.object({
  document: documentIdParam(
    { name: 'document', description: 'The rule file id', example: 'sheets/support.rules.yaml' },
    ['sheet', 'colang'],
    'a rule file id (a rule sheet or Colang policy): only those have shadows',
  ),
});

const startRoute = createRoute({
  method: 'post',
  path: '/shadows',
  middleware: [members('owner', 'admin'), people()] as const,
  operationId: 'startShadow',
  tags: ['simulations'],
  summary: 'Check a stored candidate version of a rule file detect-only beside the running one on live calls (owner or admin).',
  request: jsonRequest(ShadowBody),
  responses: {
    201: { ...jsonResponse(ShadowSchema, 'The shadow, running.'), headers: LOCATION },
    ...ERRORS,
    404: errorResponse('NOT_FOUND (details.resource "version"): the document has no such version.'),
    400: errorResponse('INVALID_SAVE: not a rule sheet or Colang policy, or the version runs already; INVALID_BODY.'),
    409: errorResponse('REJECTED_VERSION: the version does not load, so it cannot run as a candidate.'),
    503: errorResponse('LOCKED: the store is busy; nothing was written; retry after Retry-After seconds.'),
  },
});

const getRoute = createRoute({
  method: 'get',
  path: '/shadows/{document}',
  middleware: [members()] as const,
  operationId: 'getShadow',
  tags: ['simulations'],
  summary: 'The shadow of a rule file: its candidate and whether it runs.',
  request: { params: DocumentParam },
  responses: {
    200: jsonResponse(ShadowSchema, 'The shadow.'),
    400: errorResponse('INVALID_ID: the id is not a rule sheet or Colang policy, or one the store would refuse.'),
    401: ERRORS[401],
    403: ERRORS[403],
    404: errorResponse('NOT_FOUND (details.resource "shadow"): the rule file has no shadow.'),
  },
});

const stopRoute = createRoute({
  method: 'post',
  path: '/shadows/{document}/stop',
  middleware: [members('owner', 'admin'), people()] as const,
  operationId: 'stopShadow',
  tags: ['simulations'],
  summary: 'Stop a shadow (owner or admin); nothing is promoted.',
  request: { params: DocumentParam },
  responses: {
    200: jsonResponse(ShadowSchema, 'The shadow, stopped.'),
    400: errorResponse('INVALID_ID: the id is not a rule sheet or Colang policy, or one the store would refuse.'),
    401: ERRORS[401],
    403: ERRORS[403],
    404: errorResponse('NOT_FOUND (details.resource "shadow"): the rule file has no shadow.'),
    503: errorResponse('LOCKED: the store is busy; nothing was written; retry after Retry-After seconds.'),
  },
});

function snake(s: RuleShadow) {
  return { document: s.document, candidate: s.candidate, started_at: s.startedAt, running: s.running };
}

/** The shadow routes. */
export function shadowRoutes() {
  const app = router();

  app.openapi(startRoute, async (c) => {
    const ctx = c.get('ctx');
    const body = c.req.valid('json');
    const shadow = await ctx.shadows.start(body.document, body.sequence, ctx.now()).catch(storeErrorFor('version'));
    return c.json(snake(shadow), 201, { Location: `/v1/shadows/${encodeURIComponent(shadow.document)}` });
  });

  app.openapi(getRoute, async (c) => {
    const { document } = c.req.valid('param');
    const shadow = await c.get('ctx').shadows.get(document).catch(storeErrorFor('shadow'));
    if (!shadow) throw notFound('shadow', `${document} has no shadow`);
    return c.json(snake(shadow), 200);
  });

  app.openapi(stopRoute, async (c) => {
    const { document } = c.req.valid('param');
    const shadow = await c.get('ctx').shadows.stop(document).catch(storeErrorFor('shadow'));
    if (!shadow) throw notFound('shadow', `${document} has no shadow`);
    return c.json(snake(shadow), 200);
  });

  return app;
}
