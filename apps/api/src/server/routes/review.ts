// Routes: review before a version runs. The decision map of an agent's tools (or of a policy version over
// the catalogues of the agents that use it), and the impact preview of a candidate version against the
// running one: the engine's decisionMap and impactPreview (docs/review.md), computed on the compile thread
// for a big policy.
import { createRoute, z } from '@hono/zod-openapi';
import { MAX_AGENT_NAME } from '../call-request.ts';
import { ApiError } from '../errors.ts';
import { router } from '../openapi.ts';
import type { ToolDecisionJson } from '../review/answers.ts';
import { previewAgainst } from '../review/preview.ts';
import { poolStanding, REVIEW_QUEUE_MAX, REVIEW_THREADS, reviewTimeMs } from '../review/review-pool.ts';
import {
  agentSubject,
  assertPolicyDocument,
  judgedMembers,
  policyCatalogues,
  review,
  runningVersion,
  versionText,
} from '../review/sources.ts';
import { IdParam, SequenceText } from './documents/schemas.ts';
import { agentParam } from './path-params.ts';
import { AgentMapSchema, DocumentMapSchema, ImpactPreviewSchema } from './review-schemas.ts';
import { errorResponse, jsonResponse, members } from './route-kit.ts';

const errors = {
  400: errorResponse('A bad path or query (INVALID_ID, INVALID_QUERY)'),
  401: errorResponse('A missing or unknown key'),
  403: errorResponse('Not a member'),
  404: errorResponse('NOT_FOUND: details.resource names what is missing (agent, document or version)'),
  409: errorResponse(
    'POLICY_NOT_LOADABLE, AGENT_NOT_LOADABLE, CATALOGUE_MISSING, DAMAGED: something it reads does not load; ANALYSIS_CANCELLED: the caller left',
  ),
  422: errorResponse('ANALYSIS_OVER_BUDGET: the analysis ran past its time or region budget (details.limit); nothing of it is answered'),
  503: errorResponse('REVIEW_QUEUE_FULL: too many analyses wait; retry after Retry-After seconds'),
};

const StandingSchema = z
  .object({
    id: z.number().int(),
    what: z.string(),
    kind: z.enum(['map', 'preview', 'diff', 'impact']).openapi({ description: "impact: a policy edit's or version diff's own impact" }),
    state: z.enum(['running', 'queued']),
    ahead: z.number().int().optional().openapi({ description: 'For a queued analysis: how many wait ahead of it (0: next)' }),
    waited_ms: z.number().int(),
    running_ms: z.number().int().optional(),
  })
  .openapi('ReviewJob');

export const reviewQueueRoute = createRoute({
  method: 'get',
  path: '/review/queue',
  tags: ['review'],
  summary: 'The decision maps, diffs and impact previews running and waiting on this node, in order',
  middleware: [members()] as const,
  responses: {
    200: jsonResponse(
      z.object({ threads: z.number().int(), queue_max: z.number().int(), time_budget_ms: z.number().int(), jobs: z.array(StandingSchema) }),
      'Where each analysis stands',
    ),
    401: errorResponse('A missing or unknown key'),
    403: errorResponse('Not a member'),
  },
});

const sequence = (name: string, description: string) =>
  SequenceText.optional().openapi({ param: { name, in: 'query' }, description, example: '1' });

export const agentMapRoute = createRoute({
  method: 'get',
  path: '/agents/{agent}/decision-map',
  tags: ['review'],
  summary: "The decision of every tool of an agent's catalogue under its policy (a version of it, or the running one)",
  middleware: [members()] as const,
  request: {
    params: z.object({
      agent: agentParam({ name: 'agent', description: 'The agent name', example: 'support-bot' }, MAX_AGENT_NAME),
    }),
    query: z.object({
      policy_version: sequence(
        'policy_version',
        "A version of the agent's own policy; the versions the gate runs when left out (an agent on a rule set takes none)",
      ),
    }),
  },
  responses: { 200: jsonResponse(AgentMapSchema, 'One map per policy the agent runs'), ...errors },
});

export const documentMapRoute = createRoute({
  method: 'get',
  path: '/documents/{id}/decision-map',
  tags: ['review'],
  summary: 'The decision of every tool of the catalogues that use a policy, under one of its versions',
  middleware: [members()] as const,
  request: {
    params: z.object({ id: IdParam }),
    query: z.object({ version: sequence('version', 'The running version when left out') }),
  },
  responses: {
    200: jsonResponse(DocumentMapSchema, 'One map per catalogue'),
    ...errors,
    400: errorResponse('NOT_A_POLICY: the document is not a policy; or a bad path or query'),
  },
});

export const impactPreviewRoute = createRoute({
  method: 'get',
  path: '/documents/{id}/impact-preview',
  tags: ['review'],
  summary: 'Which tools a candidate version of a policy changes, from what decision to what, against the running one',
  middleware: [members()] as const,
  request: {
    params: z.object({ id: IdParam }),
    query: z.object({
      candidate: SequenceText.openapi({ param: { name: 'candidate', in: 'query' }, example: '1' }),
      running: sequence('running', 'The version to compare with; the running one when left out'),
    }),
  },
  responses: {
    200: jsonResponse(ImpactPreviewSchema, 'The preview, per catalogue'),
    ...errors,
    400: errorResponse('NOT_A_POLICY: the document is not a policy; or a bad path or query'),
  },
});

export function reviewRoutes() {
  const app = router();

  app.openapi(reviewQueueRoute, (c) =>
    c.json({ threads: REVIEW_THREADS, queue_max: REVIEW_QUEUE_MAX, time_budget_ms: reviewTimeMs(), jobs: poolStanding() }, 200),
  );

  app.openapi(agentMapRoute, async (c) => {
    const ctx = c.get('ctx');
    const { agent } = c.req.valid('param');
    const { policy_version } = c.req.valid('query');
    const subject = await agentSubject(ctx, agent);
    let versions = subject.policies;
    if (policy_version !== undefined) {
      if (subject.policy === undefined) {
        throw new ApiError(
          'NO_AGENT_POLICY',
          `${agent} names no policy of its own (a rule set pins its versions): ask GET /v1/documents/{id}/decision-map?version=N`,
        );
      }
      versions = [{ document: subject.policy, sequence: Number(policy_version) }];
    }
    const members = await judgedMembers(ctx);
    const policies: { document: string; version: number; tools: ToolDecisionJson[] }[] = [];
    for (const { document, sequence } of versions) {
      const policy = await versionText(ctx, document, sequence);
      const answer = await review<{ ok: true; maps: ToolDecisionJson[][] }>(
        { map: { policy, catalogues: [subject.tools], members } },
        `${document} version ${sequence}`,
        c.req.raw.signal,
      );
      policies.push({ document, version: sequence, tools: answer.maps[0] ?? [] });
    }
    return c.json({ agent, catalogue: subject.catalogue, policies }, 200);
  });

  app.openapi(documentMapRoute, async (c) => {
    const ctx = c.get('ctx');
    const { id } = c.req.valid('param');
    const query = c.req.valid('query');
    await assertPolicyDocument(ctx, id);
    const at =
      query.version === undefined
        ? await runningVersion(ctx, id)
        : { sequence: Number(query.version), text: await versionText(ctx, id, Number(query.version)) };
    const { source, catalogues } = await policyCatalogues(ctx, id);
    const answer = await review<{ ok: true; maps: ToolDecisionJson[][] }>(
      { map: { policy: at.text, catalogues: catalogues.map((k) => k.tools), members: await judgedMembers(ctx) } },
      `${id} version ${at.sequence}`,
      c.req.raw.signal,
    );
    return c.json(
      {
        id,
        version: at.sequence,
        source,
        catalogues: catalogues.map((k, i) => ({ id: k.id, agents: k.agents, tools: answer.maps[i] ?? [] })),
      },
      200,
    );
  });

  app.openapi(impactPreviewRoute, async (c) => {
    const ctx = c.get('ctx');
    const { id } = c.req.valid('param');
    const query = c.req.valid('query');
    await assertPolicyDocument(ctx, id);
    const running =
      query.running === undefined
        ? await runningVersion(ctx, id)
        : { sequence: Number(query.running), text: await versionText(ctx, id, Number(query.running)) };
    const candidate = { sequence: Number(query.candidate), text: await versionText(ctx, id, Number(query.candidate)) };
    const what = `${id} versions ${running.sequence} -> ${candidate.sequence}`;
    const preview = await previewAgainst(ctx, id, running, candidate.text, what, c.req.raw.signal);
    return c.json({ ...preview, candidate: candidate.sequence }, 200);
  });

  return app;
}
