// Routes: the gate. An agent sends its call; decideAgentCall (gate/decide-agent-call.ts) decides and records
// it with the agent document and what it names, and a held call gets an approval request.
import { createRoute, z } from '@hono/zod-openapi';
import { preparedJsonAnswer } from '../answer-headers.ts';
import { MAX_REQUEST_BODY_BYTES } from '../body-limit.ts';
import { agentNameIssues, type CallRequestBody, callBodyIssues, MAX_AGENT_NAME, readJsonBody } from '../call-request.ts';
import { ApiError } from '../errors.ts';
import { decideAgentCall } from '../gate/decide-agent-call.ts';
import { laneFailure } from '../gate/direct-lane.ts';
import { withIncoming } from '../observability/tracing.ts';
import { router, undecodablePathCheck, unknownQueryAnswer, validationAnswer } from '../openapi.ts';
import { agentParam } from './path-params.ts';
import { errorResponse, jsonBody, jsonResponse } from './route-kit.ts';

export const CallBody = z
  .strictObject({
    tool: z.string().min(1).max(128).openapi({ description: "The catalogue tool's name." }),
    arguments: z.record(z.string(), z.unknown()).openapi({ description: "The call's arguments (a JSON object)." }),
    session: z.string().min(1).max(256).optional().openapi({ description: 'A session id: earlier allowed calls with it are the history.' }),
    contexts: z.record(z.string(), z.unknown()).optional().openapi({ description: 'Contexts the host sets for this call.' }),
    confirmed: z.boolean().optional().openapi({ description: 'Whether a person confirmed this call.' }),
  })
  .openapi('CallBody');

const CallAnswer = z
  .object({
    call_id: z.string(),
    decision: z.enum(['allow', 'deny', 'require_approval', 'confirm']),
    rule: z.string().nullable(),
    code: z.string().nullable(),
    explanation: z.record(z.string(), z.unknown()).openapi({ description: 'What the agent is told, at its disclosure level.' }),
    approval: z
      .object({ id: z.string(), expires_at: z.iso.datetime({ offset: true }), approvers_count: z.number().int().min(0) })
      .optional(),
    observed: z
      .object({ window: z.string(), would_have_been: z.enum(['allow', 'deny', 'require_approval', 'confirm']) })
      .optional()
      .openapi({ description: 'Set when an observe window relaxed the decision: the window and what the decision would have been.' }),
  })
  .openapi('CallAnswer');

/** The route as /v1/openapi.json describes it; call-request.ts checks requests against it by hand. */
export const callRoute = createRoute({
  method: 'post',
  path: '/agents/{agent}/calls',
  operationId: 'decideCall',
  tags: ['gate'],
  summary: "Decide an agent's call",
  request: {
    params: z.object({ agent: agentParam({ name: 'agent', description: "The agent's name", example: 'support-bot' }, MAX_AGENT_NAME) }),
    body: jsonBody(CallBody),
  },
  responses: {
    200: jsonResponse(CallAnswer, 'The decision, recorded'),
    400: errorResponse('A bad body'),
    403: errorResponse("Not this agent's key"),
    404: errorResponse('No such agent'),
  },
});

const NO_QUERY: ReadonlySet<string> = new Set();

export function gateRoutes() {
  const app = router();
  // Described by callRoute, served by a plain handler: the request is checked by hand, synchronously and
  // with zod's issues (call-request.ts), instead of by zod-openapi's validators (docs/performance.md, "API gate").
  app.openAPIRegistry.registerPath(callRoute);
  const undecodable = undecodablePathCheck(callRoute.path);
  app.post('/agents/:agent/calls', async (c) => {
    // The checks undecodablePathParams and onlyDeclaredQuery make, made here: each middleware is a turn of Hono's dispatch.
    const refused = undecodable(c) ?? unknownQueryAnswer(c, NO_QUERY);
    if (refused) return refused;
    const ctx = c.get('ctx');
    const principal = c.get('principal');
    const name = c.req.param('agent');
    const badName = agentNameIssues(name);
    if (badName) return validationAnswer(c, badName, 'param');
    const read = await readJsonBody(c, MAX_REQUEST_BODY_BYTES);
    if (read instanceof Response) return read;
    const issues = callBodyIssues(read.value);
    if (issues) return validationAnswer(c, issues);
    const body = read.value as CallRequestBody;
    const options = read.argumentsText === undefined ? undefined : { argumentsText: read.argumentsText };
    if (principal.kind !== 'agent') throw new ApiError('AGENT_KEY_REQUIRED', "only the agent's own key sends its calls");
    if (principal.agent !== name) throw new ApiError('AGENT_MISMATCH', `this key belongs to ${principal.agent}, not ${name}`);
    // Decided already in the gate's direct lane, which threw: thrown again, never decided twice (gate/direct-lane.ts).
    const failed = laneFailure(c.env);
    if (failed) throw failed.error;
    // The decision's span continues the caller's `traceparent` (observability/tracing.ts).
    const answer = await withIncoming(c.req.raw, () => decideAgentCall(ctx, name, body, options));
    // Headers prepared once, the text as c.json writes it (answer-headers.ts).
    return preparedJsonAnswer(c, JSON.stringify(answer)) ?? c.json(answer, 200);
  });
  return app;
}
