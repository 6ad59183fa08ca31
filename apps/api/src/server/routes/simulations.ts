// Routes: simulations and trials. A simulation decides example or recorded calls with a policy version
// (and a candidate), never guessing a call whose arguments are gone; a trial runs a stored candidate
// beside the running version on a sample of live calls (PolicyTrials).
import { createRoute, z } from '@hono/zod-openapi';
import { JsonNumber } from '@tollgate/engine/source';
import type { TrialReport } from '@tollgate/store';
import { publishTrial } from '../gate/live-trials.ts';
import { router } from '../openapi.ts';
import { compareCalls, Expectation, exampleCalls, pastedCalls, policyOf, recordedCalls, SimulationBody } from '../simulations/simulate.ts';
import { documentIdParam } from './path-params.ts';
import { refuseNotAPolicy } from './policy-only.ts';
import { ERRORS, errorResponse, exactJson, jsonRequest, jsonResponse, LOCATION, members, notFound, storeErrorFor } from './route-kit.ts';

/**
 * A trial's sampling rate: a fraction, which the exact reader keeps as written (`0.5`); a rate decides no
 * call, so its double is what it means.
 */
const SampleRate = z.preprocess((v) => (v instanceof JsonNumber ? Number(v.lexeme) : v), z.number().gt(0).lte(1));
/** A count of calls. */
const Count = z.number().int().min(0);
const Decision = z.object({ decision: z.string(), rule: z.string().nullable(), code: z.string().nullable() });
const Outcome = z.union([Decision, z.object({ not_evaluable: z.literal(true), code: z.string() })]);
const SimulationResult = z.object({
  compared: z.enum(['candidate', 'expected', 'recorded']),
  counts: z.object({ calls: Count, agreed: Count, differed: Count, not_evaluable: Count }),
  calls: z.array(
    z.object({
      name: z.string(),
      tool: z.string(),
      status: z.enum(['agreed', 'differed', 'not_evaluable', 'decided']),
      code: z.string().optional(),
      document: Outcome,
      candidate: Outcome.optional(),
      expected: Expectation.optional().openapi({ description: "The pasted call's or example's expectation." }),
      recorded: Decision.optional().openapi({ description: 'What the gate decided when the call was recorded.' }),
    }),
  ),
});

const TrialSchema = z
  .object({
    document: z.string(),
    candidate: z.number().int().min(1),
    sample_rate: z.number().gt(0).lte(1),
    started_at: z.iso.datetime({ offset: true }),
    calls: Count,
    sampled: Count,
    agreed: Count,
    differed: Count,
    differing: z.array(z.string()).openapi({ description: 'The ids of the newest 100 calls whose answers differed, oldest first.' }),
    differences: z
      .array(z.object({ call_id: z.string(), running: Decision, candidate: Decision }))
      .openapi({ description: "The newest 100 differing calls, oldest first, with the running version's and the candidate's answers." }),
    running: z.boolean(),
  })
  .openapi('Trial');
const TrialBody = z
  .strictObject({
    document: z.string().min(1),
    sequence: z.number().int().positive(),
    sample_rate: SampleRate.optional().openapi({ description: 'The share of calls that also run the candidate; or give sample_every.' }),
    sample_every: z.number().int().min(1).optional().openapi({ description: 'Every n-th call also runs the candidate (1: every call).' }),
  })
  .refine((b) => (b.sample_rate === undefined) !== (b.sample_every === undefined), {
    message: 'give sample_rate or sample_every, one of them',
    path: ['sample_rate'],
  })
  .openapi('TrialBody');
const ONLY_POLICIES = 'only a policy has trials';
const DocumentParam = z.object({
  document: documentIdParam({ name: 'document', description: 'The policy id', example: 'policies/refunds.policy.json' }),
});

const simulateRoute = createRoute({
  method: 'post',
  path: '/simulations',
  middleware: [members()] as const,
  operationId: 'runSimulation',
  tags: ['simulations'],
  summary: 'Decide example, pasted or recorded calls with a version, and a candidate beside it; keeps nothing.',
  request: jsonRequest(SimulationBody),
  responses: {
    200: jsonResponse(SimulationResult, 'Each call’s decision by each version, and agreed/differed counts.'),
    ...ERRORS,
    400: errorResponse('NOT_A_POLICY: a stored document named is not a policy; INVALID_BODY: the body is not of the documented shape.'),
    404: errorResponse('NOT_FOUND (details.resource "version"): the document has no such version.'),
    422: errorResponse(
      "INVALID_POLICY (the document is not a valid policy, or its approvers.users are not the workspace's members able to approve: UNKNOWN_APPROVER, APPROVER_ROLE_NOT_CAPABLE in details.errors), INVALID_EXAMPLES, INVALID_TOOL or TOO_MANY_CALLS.",
    ),
  },
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
      'NOT_A_POLICY: the document is not a policy; INVALID_ID: an id the store would refuse; INVALID_SAVE: the version runs already or the sample rate is out of range; INVALID_BODY.',
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
    started_at: r.startedAt,
    calls: r.calls,
    sampled: r.sampled,
    agreed: r.agreed,
    differed: r.differed,
    differing: r.differing,
    differences: r.differences.map((d) => ({ call_id: d.callId, running: d.running, candidate: d.candidate })),
    running: r.running,
  };
}

/** The simulation and trial routes; simulating is for members, starting and stopping trials for owners and admins. */
export function simulationRoutes() {
  const app = router();

  app.openapi(simulateRoute, async (c) => {
    const ctx = c.get('ctx');
    const body = c.req.valid('json');
    const document = await policyOf(ctx, body.document, '/document');
    const candidate = body.candidate === undefined ? undefined : await policyOf(ctx, body.candidate, '/candidate');
    const calls = Array.isArray(body.calls)
      ? pastedCalls(body.calls)
      : 'examples' in body.calls
        ? exampleCalls(body.calls.examples)
        : await recordedCalls(ctx, body.calls.recorded);
    const { compared, counts, results } = compareCalls(document, candidate, calls, body.calls, ctx.now());
    return exactJson(c, { compared, counts, calls: results } as const, 200);
  });

  app.openapi(startTrialRoute, async (c) => {
    const body = c.req.valid('json');
    refuseNotAPolicy(body.document, ONLY_POLICIES);
    // The store's not_found is of the version named (the document may have others): as the shadow routes say.
    const report = await c
      .get('ctx')
      .trials.start({ document: body.document, sequence: body.sequence, sampleRate: body.sample_rate ?? 1 / (body.sample_every ?? 1) })
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
