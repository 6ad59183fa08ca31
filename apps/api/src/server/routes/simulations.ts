// Route: simulations. A simulation decides example or recorded calls with a policy version (and a candidate),
// never guessing a call whose arguments are gone; trials of live calls are routes/trials.ts.
import { createRoute, z } from '@hono/zod-openapi';
import { router } from '../openapi.ts';
import { compareCalls, Expectation, exampleCalls, pastedCalls, policyOf, recordedCalls, SimulationBody } from '../simulations/simulate.ts';
import { ERRORS, errorResponse, exactJson, jsonRequest, jsonResponse, members } from './route-kit.ts';

/** A count of calls. */
export const Count = z.number().int().min(0);
/** What a version decided a call, as simulations and trials show it. */
export const Decision = z.object({ decision: z.string(), rule: z.string().nullable(), code: z.string().nullable() });
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

/** The simulation route, for members. */
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

  return app;
}
