// Routes: the gate. An agent sends its call; the agent document and what it names (running versions from
// the store) decide it; the decision is recorded, and a held call gets an approval request.
import { randomUUID } from 'node:crypto';
import { createRoute, z } from '@hono/zod-openapi';
import { decidePrepared } from '@tollgate/engine';
import { writeJson } from '@tollgate/engine/source';
import { MAX_BODY_BYTES } from '../body-limit.ts';
import { agentNameIssues, type CallRequestBody, callBodyIssues, readJsonBody } from '../call-request.ts';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { observeTrials } from '../gate/live-trials.ts';
import { loadAgentCached } from '../gate/load-agent.ts';
import { shadowDifferencesFor } from '../gate/shadow-runs.ts';
import { onlyDeclaredQuery, router, validationError } from '../openapi.ts';
import { cachedJudgedMembers } from '../state/auth-cache.ts';
import { newCallId } from '../state/call-id.ts';
import { decisionLogOf } from '../state/decision-log.ts';
import { argumentsDigest, type DecisionRow, forgetOldArguments, sessionHistory } from '../state/decisions.ts';
import { ErrorSchema } from './route-kit.ts';

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
    params: z.object({ agent: z.string().min(1).max(128) }),
    body: { required: true, content: { 'application/json': { schema: CallBody } } },
  },
  responses: {
    200: { description: 'The decision, recorded', content: { 'application/json': { schema: CallAnswer } } },
    400: { description: 'A bad body', content: { 'application/json': { schema: ErrorSchema } } },
    403: { description: "Not this agent's key", content: { 'application/json': { schema: ErrorSchema } } },
    404: { description: 'No such agent', content: { 'application/json': { schema: ErrorSchema } } },
  },
});

/** How long a decision's arguments are kept (their digest is kept always). */
export const ARGUMENTS_RETENTION_DAYS = 30;
const SWEEP_EVERY_MS = 3600_000;
const lastSweep = new WeakMap<AppContext, number>();

/** Forgets arguments past the retention period, at most once an hour per data folder. */
function sweepArguments(ctx: AppContext, now: Date): void {
  if (now.getTime() - (lastSweep.get(ctx) ?? 0) < SWEEP_EVERY_MS) return;
  lastSweep.set(ctx, now.getTime());
  forgetOldArguments(ctx.db, new Date(now.getTime() - ARGUMENTS_RETENTION_DAYS * 86_400_000));
}

const NO_QUERY: ReadonlySet<string> = new Set();

export function gateRoutes() {
  const app = router();
  // Described by callRoute, served by a plain handler: the request is checked by hand, synchronously and
  // with zod's issues (call-request.ts), instead of by zod-openapi's validators (docs/performance.md, "API gate").
  app.openAPIRegistry.registerPath(callRoute);
  app.post('/agents/:agent/calls', onlyDeclaredQuery(NO_QUERY), async (c) => {
    const ctx = c.get('ctx');
    const principal = c.get('principal');
    const name = c.req.param('agent');
    const badName = agentNameIssues(name);
    if (badName) return c.json(validationError(badName, 'param'), 400);
    const value = await readJsonBody(c, MAX_BODY_BYTES);
    if (value instanceof Response) return value;
    const issues = callBodyIssues(value);
    if (issues) return c.json(validationError(issues), 400);
    const body = value as CallRequestBody;
    if (principal.kind !== 'agent') throw new ApiError(403, 'AGENT_KEY_REQUIRED', "only the agent's own key sends its calls");
    if (principal.agent !== name) throw new ApiError(403, 'AGENT_MISMATCH', `this key belongs to ${principal.agent}, not ${name}`);
    const { loaded, versionsJson } = await loadAgentCached(ctx, name);
    const now = ctx.now();
    sweepArguments(ctx, now);
    const members = cachedJudgedMembers(ctx.db);
    const history = body.session === undefined ? [] : sessionHistory(ctx.db, name, body.session);
    const input = {
      members,
      now,
      call: { tool: body.tool, arguments: body.arguments, history, contexts: body.contexts, confirmed: body.confirmed },
    };
    const d = decidePrepared(loaded.prepared, input);
    const shadows = await shadowDifferencesFor(ctx, loaded, input.call);
    const callId = newCallId(now.getTime());
    const digest = argumentsDigest(body.arguments);
    const createdAt = now.toISOString();
    const approvalId = d.decision === 'require_approval' && d.approval ? randomUUID() : undefined;
    const row: DecisionRow = {
      call_id: callId,
      agent: name,
      tool: body.tool,
      action: d.action,
      amount: d.amount,
      currency: d.currency,
      decision: d.decision,
      rule: d.rule,
      code: d.code,
      versions: versionsJson,
      arguments: writeJson(body.arguments),
      arguments_digest: digest,
      session: body.session ?? null,
      created_at: createdAt,
      shadow_differences: shadows.length === 0 ? null : JSON.stringify(shadows),
    };
    // A held call and its approval request are written before the agent hears of it; any other decision
    // joins this tick's batch (see state/decision-log.ts).
    const log = decisionLogOf(ctx.db);
    if (approvalId && d.approval) {
      log.recordHeld(row, {
        id: approvalId,
        call_id: callId,
        agent: name,
        tool: body.tool,
        arguments_digest: digest,
        policy_document: d.approval.policy.document,
        policy_sequence: d.approval.policy.sequence,
        rule: d.rule,
        description: d.approval.description,
        approvers: JSON.stringify(d.approval.approvers),
        status: 'pending',
        expires_at: d.approval.expires_at,
        decided_by: null,
        decided_at: null,
        reason: null,
        signature: null,
        signed_content: null,
        claimed_at: null,
        created_at: createdAt,
      });
    } else {
      log.record(row);
    }
    if (approvalId) ctx.events.publish({ type: 'approval', id: approvalId, status: 'pending' });
    const answer: z.infer<typeof CallAnswer> = {
      call_id: callId,
      decision: d.decision,
      // At disclosure none the agent learns the decision only.
      rule: loaded.agent.disclosure === 'none' ? null : d.rule,
      code: loaded.agent.disclosure === 'none' ? null : d.code,
      explanation: { ...d.notice },
    };
    if (d.observed) answer.observed = d.observed;
    if (approvalId && d.approval) {
      answer.approval = { id: approvalId, expires_at: d.approval.expires_at, approvers_count: d.approval.approvers.length };
    }
    // Candidates under trial decide the call again once it is answered (gate/live-trials.ts).
    observeTrials(ctx, loaded.prepared, input, d, callId);
    return c.json(answer, 200);
  });
  return app;
}
