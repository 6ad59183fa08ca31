// Routes: trials. A trial runs a stored candidate beside the running version on a sample of live calls
// (PolicyTrials, gate/live-trials.ts), optionally of one agent or one tool, until a time or a number of samples;
// every differing call is kept, and listed page by page (docs/review.md, "Trials on live calls").
import { createRoute, z } from '@hono/zod-openapi';
import { JsonNumber } from '@tollgate/engine/source';
import type { TrialReport } from '@tollgate/store';
import { MAX_AGENT_NAME, MAX_TOOL_NAME } from '../call-request.ts';
import { ApiError } from '../errors.ts';
import { publishTrial } from '../gate/live-trials.ts';
import { router } from '../openapi.ts';
import { encodeCursor } from '../state/keyset.ts';
import { CursorQuery, PageFields, pageKeyOf } from './paging.ts';
import { documentIdParam } from './path-params.ts';
import { refuseNotAPolicy } from './policy-only.ts';
import { ERRORS, errorResponse, jsonRequest, jsonResponse, LOCATION, limitQuery, members, notFound, storeErrorFor } from './route-kit.ts';
import { Count, Decision } from './simulations.ts';

/**
 * A trial's sampling rate: a fraction, which the exact reader keeps as written (`0.5`); a rate decides no
 * call, so its double is what it means.
 */
const SampleRate = z.preprocess((v) => (v instanceof JsonNumber ? Number(v.lexeme) : v), z.number().gt(0).lte(1));

const MAX_DIFFERENCES_LIMIT = 500;
const DEFAULT_DIFFERENCES_LIMIT = 100;

const TrialSchema = z
  .object({
    document: z.string(),
    candidate: z.number().int().min(1),
    sample_rate: z.number().gt(0).lte(1),
    agent: z.string().nullable().openapi({ description: "Only this agent's calls are sampled; null: every agent's." }),
    tool: z.string().nullable().openapi({ description: 'Only calls of this tool are sampled; null: every tool.' }),
    ends_at: z.iso.datetime({ offset: true }).nullable().openapi({ description: 'Calls decided from this time on are not sampled.' }),
    max_samples: z.number().int().min(1).nullable().openapi({ description: 'The trial ends after this many sampled calls.' }),
    started_at: z.iso.datetime({ offset: true }),
    calls: Count.openapi({ description: "The calls in the trial's scope counted so far (none after it ends)." }),
    sampled: Count,
    agreed: Count,
    differed: Count,
    differing: z.array(z.string()).openapi({ description: 'The ids of the newest 100 calls whose answers differed, oldest first.' }),
    differences: z.array(z.object({ call_id: z.string(), running: Decision, candidate: Decision })).openapi({
      description:
        "The newest 100 differing calls, oldest first, with the running version's and the candidate's answers; every one is listed by GET /v1/trials/{document}/differences.",
    }),
    running: z.boolean().openapi({ description: 'Whether the trial samples calls: not stopped and not ended.' }),
    ended: z
      .enum(['stopped', 'ends_at', 'max_samples'])
      .nullable()
      .openapi({ description: 'Why it samples no more: stopped by a person, past ends_at, or max_samples sampled; null while it runs.' }),
  })
  .openapi('Trial');

const TrialBody = z
  .strictObject({
    document: z.string().min(1),
    sequence: z.number().int().positive(),
    sample_rate: SampleRate.optional().openapi({ description: 'The share of calls that also run the candidate; or give sample_every.' }),
    sample_every: z.number().int().min(1).optional().openapi({ description: 'Every n-th call also runs the candidate (1: every call).' }),
    agent: z.string().min(1).max(MAX_AGENT_NAME).optional().openapi({ description: "Sample only this agent's calls." }),
    tool: z.string().min(1).max(MAX_TOOL_NAME).optional().openapi({ description: 'Sample only calls of this tool (its catalogue name).' }),
    ends_at: z.iso
      .datetime({ offset: true })
      .optional()
      .openapi({ description: 'Stop sampling calls decided from this time on (RFC 3339, after now).' }),
    max_samples: z.number().int().min(1).optional().openapi({ description: 'Stop after this many sampled calls.' }),
  })
  .refine((b) => (b.sample_rate === undefined) !== (b.sample_every === undefined), {
    message: 'give sample_rate or sample_every, one of them',
    path: ['sample_rate'],
  })
  .openapi('TrialBody');

const TrialDifferenceSchema = z
  .object({
    call_id: z.string(),
    arguments_digest: z.string().nullable().openapi({
      description:
        "The digest of the call's arguments, as its decision has it; never the values. Null for a call kept before digests were.",
    }),
    running: Decision,
    candidate: Decision,
  })
  .openapi('TrialDifference');

const ONLY_POLICIES = 'only a policy has trials';
const DocumentParam = z.object({
  document: documentIdParam({ name: 'document', description: 'The policy id', example: 'policies/refunds.policy.json' }),
});

const startTrialRoute = createRoute({
  method: 'post',
  path: '/trials',
  middleware: [members('owner', 'admin')] as const,
  operationId: 'startTrial',
  tags: ['simulations'],
  summary: 'Start a trial of a stored candidate version on a sample of live calls (owner or admin).',
  request: jsonRequest(TrialBody),
  responses: {
    201: { ...jsonResponse(TrialSchema, 'The trial, running.'), headers: LOCATION },
    ...ERRORS,
    404: errorResponse('NOT_FOUND (details.resource "version"): the document has no such version.'),
    400: errorResponse(
      'NOT_A_POLICY: the document is not a policy; INVALID_ID: an id the store would refuse; INVALID_SAVE: the version runs already, the sample rate is out of range or ends_at is not after now; INVALID_BODY.',
    ),
    409: errorResponse('REJECTED_VERSION: the version did not load, so it cannot run as a candidate.'),
    503: errorResponse('LOCKED: the store is busy; nothing was written; retry after Retry-After seconds.'),
  },
});

const trialRoute = createRoute({
  method: 'get',
  path: '/trials/{document}',
  middleware: [members()] as const,
  operationId: 'getTrial',
  tags: ['simulations'],
  summary: 'The trial of a policy: counts of sampled, agreed and differing calls; 204 when it has none.',
  request: { params: DocumentParam },
  responses: {
    200: jsonResponse(TrialSchema, 'The trial.'),
    // Most policies have no trial: that is an empty state, not an error (docs/api.md, "Trials").
    204: { description: 'The policy has no trial.' },
    400: errorResponse('NOT_A_POLICY: the document is not a policy; INVALID_ID: an id that can never name a document.'),
    401: ERRORS[401],
    403: ERRORS[403],
  },
});

const differencesRoute = createRoute({
  method: 'get',
  path: '/trials/{document}/differences',
  middleware: [members()] as const,
  operationId: 'listTrialDifferences',
  tags: ['simulations'],
  summary: "Every call of a policy's trial whose answers differed, newest first, one page at a time.",
  request: {
    params: DocumentParam,
    query: z.object({ limit: limitQuery(MAX_DIFFERENCES_LIMIT, DEFAULT_DIFFERENCES_LIMIT), cursor: CursorQuery }),
  },
  responses: {
    200: jsonResponse(
      z.object({
        document: z.string(),
        started_at: z.iso.datetime({ offset: true }),
        differences: z.array(TrialDifferenceSchema),
        ...PageFields,
      }),
      'One page of differing calls.',
    ),
    400: errorResponse(
      'NOT_A_POLICY; INVALID_ID; INVALID_QUERY: a bad limit; INVALID_CURSOR: a cursor this server did not give for this trial.',
    ),
    401: ERRORS[401],
    403: ERRORS[403],
    404: errorResponse('NOT_FOUND (details.resource "trial"): the policy has no trial.'),
  },
});

const stopTrialRoute = createRoute({
  method: 'post',
  path: '/trials/{document}/stop',
  middleware: [members('owner', 'admin')] as const,
  operationId: 'stopTrial',
  tags: ['simulations'],
  summary: 'Stop a trial (owner or admin); nothing is promoted.',
  request: { params: DocumentParam },
  responses: {
    200: jsonResponse(TrialSchema, 'The trial, stopped.'),
    400: errorResponse('NOT_A_POLICY: the document is not a policy; INVALID_ID: an id that can never name a document.'),
    401: ERRORS[401],
    403: ERRORS[403],
    404: errorResponse('NOT_FOUND (details.resource "trial"): the policy has no trial.'),
    503: errorResponse('LOCKED: the store is busy; nothing was written; retry after Retry-After seconds.'),
  },
});

function snake(r: TrialReport) {
  return {
    document: r.document,
    candidate: r.candidate,
    sample_rate: r.sampleRate,
    agent: r.agent ?? null,
    tool: r.tool ?? null,
    ends_at: r.endsAt ?? null,
    max_samples: r.maxSamples ?? null,
    started_at: r.startedAt,
    calls: r.calls,
    sampled: r.sampled,
    agreed: r.agreed,
    differed: r.differed,
    differing: r.differing,
    differences: r.differences.map((d) => ({ call_id: d.callId, running: d.running, candidate: d.candidate })),
    running: r.running,
    ended: r.ended,
  };
}

/** The trial routes: reading a trial is for members, starting and stopping one for owners and admins. */
export function trialRoutes() {
  const app = router();

  app.openapi(startTrialRoute, async (c) => {
    const body = c.req.valid('json');
    refuseNotAPolicy(body.document, ONLY_POLICIES);
    // The store's not_found is of the version named (the document may have others): as the shadow routes say.
    const report = await c
      .get('ctx')
      .trials.start({
        document: body.document,
        sequence: body.sequence,
        sampleRate: body.sample_rate ?? 1 / (body.sample_every ?? 1),
        agent: body.agent,
        tool: body.tool,
        endsAt: body.ends_at,
        maxSamples: body.max_samples,
      })
      .catch(storeErrorFor('version'));
    publishTrial(c.get('ctx'), report.document);
    return c.json(snake(report), 201, { Location: `/v1/trials/${encodeURIComponent(report.document)}` });
  });

  app.openapi(trialRoute, async (c) => {
    const { document } = c.req.valid('param');
    refuseNotAPolicy(document, ONLY_POLICIES);
    const report = await c.get('ctx').trials.report(document).catch(storeErrorFor('document'));
    if (!report) return c.body(null, 204);
    return c.json(snake(report), 200);
  });

  app.openapi(differencesRoute, async (c) => {
    const { document } = c.req.valid('param');
    const { limit, cursor } = c.req.valid('query');
    refuseNotAPolicy(document, ONLY_POLICIES);
    const after = pageKeyOf(cursor);
    const page = await c
      .get('ctx')
      .trials.differences(document, limit ?? DEFAULT_DIFFERENCES_LIMIT, after?.rowid)
      .catch(storeErrorFor('document'));
    if (!page) throw notFound('trial', `${document} has no trial`);
    // The house cursor (state/keyset.ts) with the trial's start as its time: a cursor of another trial is refused.
    if (after && after.createdAt !== page.startedAt) {
      throw new ApiError('INVALID_CURSOR', 'the cursor is of another trial of this document; start again without one');
    }
    const last = page.differences.at(-1);
    return c.json(
      {
        document,
        started_at: page.startedAt,
        differences: page.differences.map((d) => ({
          call_id: d.callId,
          arguments_digest: d.argumentsDigest ?? null,
          running: d.running,
          candidate: d.candidate,
        })),
        has_more: page.more,
        next_cursor: page.more && last ? encodeCursor({ createdAt: page.startedAt, rowid: last.seq }) : null,
      },
      200,
    );
  });

  app.openapi(stopTrialRoute, async (c) => {
    const { document } = c.req.valid('param');
    refuseNotAPolicy(document, ONLY_POLICIES);
    const report = await c.get('ctx').trials.stop(document).catch(storeErrorFor('trial'));
    if (!report) throw notFound('trial', `${document} has no trial`);
    publishTrial(c.get('ctx'), document);
    return c.json(snake(report), 200);
  });

  return app;
}
