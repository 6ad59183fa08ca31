// Routes: the recorded gate decisions, newest first, for members. The arguments themselves (kept only for
// the retention period) are shown only on request, and only to owners and admins; their digest always.
import { createRoute, z } from '@hono/zod-openapi';
import type { ShadowDifference } from '@tollgate/engine';
import { createMiddleware } from 'hono/factory';
import { type Env, requireMember } from '../auth.ts';
import { ApiError } from '../errors.ts';
import { router } from '../openapi.ts';
import type { DecisionRow } from '../state/decisions/model.ts';
import { readStoredJson } from '../state/stored-json.ts';
import { CursorQuery, PageFields, pageKeyOf } from './paging.ts';
import { nameParam } from './path-params.ts';
import { CallVia, ERRORS, errorResponse, exactJson, jsonResponse, limitQuery, members, notFound } from './route-kit.ts';

export const DEFAULT_DECISIONS_LIMIT = 100;
export const MAX_DECISIONS_LIMIT = 500;

const Timestamp = z.iso.datetime({ offset: true });
const WithArguments = z
  .enum(['true', 'false'])
  .optional()
  .openapi({ description: 'true to include the kept arguments (owner or admin only).' });

const ListQuery = z.strictObject({
  agent: z.string().min(1).optional().openapi({ description: 'Only this agent’s calls.' }),
  since: Timestamp.optional().openapi({ description: 'Only calls at or after this ISO date-time.' }),
  until: Timestamp.optional().openapi({ description: 'Only calls at or before this ISO date-time.' }),
  limit: limitQuery(MAX_DECISIONS_LIMIT, DEFAULT_DECISIONS_LIMIT),
  cursor: CursorQuery,
  with_arguments: WithArguments,
  shadow: z
    .enum(['differs'])
    .optional()
    .openapi({ description: 'differs: only calls on which a shadowed rule file’s candidate gave another verdict (docs/review.md).' }),
});
const OneQuery = z.strictObject({ with_arguments: WithArguments });
const CallParam = z.object({
  call_id: nameParam({ name: 'call_id', description: 'The call id, URL-encoded', example: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b' }),
});

const DecisionSchema = z
  .object({
    call_id: z.string(),
    agent: z.string(),
    tool: z.string(),
    action: z.string().nullable(),
    amount: z.string().nullable(),
    currency: z.string().nullable(),
    decision: z.string(),
    rule: z.string().nullable(),
    code: z.string().nullable(),
    versions: z.record(z.string(), z.number()).openapi({ description: 'The document versions that decided: {id: sequence}.' }),
    arguments_digest: z.string(),
    arguments_kept: z.boolean(),
    arguments: z
      .record(z.string(), z.unknown())
      .nullable()
      .optional()
      .openapi({ description: 'Only with ?with_arguments=true: the arguments, or null once forgotten.' }),
    session: z.string().nullable(),
    created_at: Timestamp,
    shadow_differences: z
      .array(
        z.object({
          document: z.string(),
          rule: z.string().nullable(),
          running: z.enum(['allow', 'refuse', 'confirm']),
          candidate: z.enum(['allow', 'refuse', 'confirm']),
        }),
      )
      .openapi({
        description:
          'The rules of shadowed rule files whose candidate gave this call another verdict than the running version (empty when none); only the running version decided.',
      }),
    via: CallVia,
  })
  .openapi('RecordedDecision');

/** Route middleware: with_arguments=true is for owners and admins, who see arguments (docs/api.md). */
function argumentsReaders() {
  return createMiddleware<Env>(async function requireArgumentsReader(c, next) {
    if (c.req.query('with_arguments') === 'true') requireMember(c.get('principal'), 'owner', 'admin');
    await next();
  });
}

const listRoute = createRoute({
  method: 'get',
  path: '/decisions',
  summary: 'Recorded gate decisions, newest first (members; arguments only for owners and admins).',
  middleware: [members(), argumentsReaders()] as const,
  request: { query: ListQuery },
  responses: {
    200: jsonResponse(z.object({ decisions: z.array(DecisionSchema), ...PageFields }), 'One page of decisions.'),
    400: errorResponse(
      'INVALID_QUERY: a bad agent, since, until, limit, with_arguments or shadow; INVALID_CURSOR: a cursor not given by this server.',
    ),
    401: ERRORS[401],
    403: ERRORS[403],
  },
});

const oneRoute = createRoute({
  method: 'get',
  path: '/decisions/{call_id}',
  summary: 'One recorded gate decision by call id (members; arguments only for owners and admins).',
  middleware: [members(), argumentsReaders()] as const,
  request: { params: CallParam, query: OneQuery },
  responses: {
    200: jsonResponse(DecisionSchema, 'The decision.'),
    400: errorResponse('INVALID_QUERY.'),
    401: ERRORS[401],
    403: ERRORS[403],
    404: errorResponse('NOT_FOUND: no decision with this call id.'),
  },
});

function present(row: DecisionRow, withArguments: boolean) {
  return {
    call_id: row.call_id,
    agent: row.agent,
    tool: row.tool,
    action: row.action,
    amount: row.amount,
    currency: row.currency,
    decision: row.decision,
    rule: row.rule,
    code: row.code,
    versions: (readStoredJson(row.versions) ?? {}) as Record<string, number>,
    arguments_digest: row.arguments_digest,
    arguments_kept: row.arguments !== null,
    ...(withArguments ? { arguments: readStoredJson(row.arguments) as Record<string, unknown> | null } : {}),
    session: row.session,
    created_at: row.created_at,
    shadow_differences: (readStoredJson(row.shadow_differences) ?? []) as ShadowDifference[],
    // Rows older than the column were all the gate route's.
    via: row.via ?? 'http',
  };
}

/** The decision routes: members read; with_arguments=true needs owner or admin. */
export function decisionRoutes() {
  const app = router();

  app.openapi(listRoute, async (c) => {
    const q = c.req.valid('query');
    const withArguments = q.with_arguments === 'true';
    if (q.since !== undefined && q.until !== undefined && new Date(q.since) > new Date(q.until)) {
      throw new ApiError('INVALID_QUERY', 'since is after until');
    }
    const after = pageKeyOf(q.cursor);
    const page = await c.get('ctx').state.listDecisions({
      ...(q.agent !== undefined ? { agent: q.agent } : {}),
      ...(q.since !== undefined ? { since: new Date(q.since).toISOString() } : {}),
      ...(q.until !== undefined ? { until: new Date(q.until).toISOString() } : {}),
      limit: q.limit ?? DEFAULT_DECISIONS_LIMIT,
      ...(after !== undefined ? { after } : {}),
      ...(q.shadow === 'differs' ? { shadowDiffers: true } : {}),
    });
    const decisions = page.rows.map((r) => present(r, withArguments));
    return exactJson(c, { decisions, has_more: page.more, next_cursor: page.next }, 200);
  });

  app.openapi(oneRoute, async (c) => {
    const { call_id } = c.req.valid('param');
    const withArguments = c.req.valid('query').with_arguments === 'true';
    const row = await c.get('ctx').state.findDecision(call_id);
    if (!row) throw notFound('decision', `no decision with call id ${call_id}`);
    return exactJson(c, present(row, withArguments), 200);
  });

  return app;
}
