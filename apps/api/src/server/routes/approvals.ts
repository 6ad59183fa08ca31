// Routes: approvals. Members list and read requests (the arguments only its eligible approvers, owners and
// admins see); an eligible member approves or denies one once (signed with their Ed25519 identity); the
// agent reads its own and claims an approved one once.
import { createRoute, z } from '@hono/zod-openapi';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { claimHeldCall } from '../gate/claim-held-call.ts';
import { router } from '../openapi.ts';
import { type ApprovalRow, statusOf } from '../state/approvals/model.ts';
import type { MemberRow, Principal } from '../state/members/model.ts';
import { readStoredJson } from '../state/stored-json.ts';
import { deciderName, eligibleApprovers, isEligible, listedApprovers, membersById } from './approval-people.ts';
import { CursorQuery, PageFields, pageKeyOf } from './paging.ts';
import { nameParam } from './path-params.ts';
import {
  ArgumentsObject,
  CallVia,
  errorResponse,
  exactJson,
  jsonBody,
  jsonResponse,
  limitQuery,
  memberOf,
  members,
  notFound,
  people,
} from './route-kit.ts';

const DateTime = z.iso.datetime({ offset: true });

const NamedMember = z.object({ id: z.string(), name: z.string() }).openapi('NamedMember');

const Approval = z
  .object({
    id: z.string(),
    call_id: z.string(),
    agent: z.string(),
    tool: z.string(),
    arguments: z.record(z.string(), z.unknown()).nullable().openapi({
      description:
        "The held call's arguments, shown only to this request's eligible approvers and to owners and admins (arguments_shown); null for anyone else, and after the retention period.",
    }),
    arguments_shown: z.boolean().openapi({
      description: 'Whether the caller may see the arguments: an eligible approver of this request, an owner or an admin.',
    }),
    arguments_digest: z.string(),
    amount: z.string().nullable(),
    currency: z.string().nullable(),
    policy_document: z.string(),
    policy_sequence: z.number().int(),
    rule: z.string().nullable(),
    description: z.string().nullable(),
    approvers: z.array(z.string()).openapi({ description: 'The ids of the members the request was held for, as the gate listed them.' }),
    eligible_approvers: z.array(NamedMember).openapi({
      description:
        'The listed approvers who may decide the request now (still of a role that approves, with a signing identity), by id and name.',
    }),
    status: z.enum(['pending', 'approved', 'denied', 'expired']),
    expires_at: DateTime,
    decided_by: z.string().nullable().openapi({ description: "The deciding member's id (their public key verifies the signature)." }),
    decided_by_name: z.string().nullable().openapi({ description: "The deciding member's name; null while undecided." }),
    decided_at: DateTime.nullable(),
    reason: z.string().nullable(),
    signature: z.string().nullable().openapi({ description: 'Ed25519 over signed_content, base64.' }),
    signed_content: z.string().nullable(),
    claimed_at: DateTime.nullable(),
    held_at: DateTime.openapi({ description: 'When the gate held the call (the same instant as created_at).' }),
    created_at: DateTime,
    via: CallVia,
  })
  .openapi('Approval');
type Approval = z.infer<typeof Approval>;

const IdParams = z.object({
  id: nameParam({ name: 'id', description: 'The approval request id', example: '6f1c2d3e-0000-4000-8000-000000000000' }, 64),
});
const DecideBody = z.strictObject({ reason: z.string().max(2000).optional() }).openapi('ApprovalDecisionBody');
const ClaimBody = z
  .strictObject({ arguments: ArgumentsObject.openapi({ description: 'The arguments of the call being claimed for.' }) })
  .openapi('ApprovalClaimBody');

const errors = {
  400: errorResponse('A bad body'),
  403: errorResponse('Not allowed'),
  404: errorResponse('No such request'),
  409: errorResponse('Decided, expired, claimed or mismatched'),
};
const ok = (description: string) => jsonResponse(Approval, description);

export const DEFAULT_APPROVALS_LIMIT = 100;
export const MAX_APPROVALS_LIMIT = 500;

const listRoute = createRoute({
  method: 'get',
  path: '/approvals',
  summary: 'List approval requests',
  middleware: [members()] as const,
  request: {
    query: z.object({
      status: z
        .enum(['pending', 'approved', 'denied', 'expired', 'decided'])
        .optional()
        .openapi({ description: 'Only requests of this status; decided is approved, denied and expired together.' }),
      limit: limitQuery(MAX_APPROVALS_LIMIT, DEFAULT_APPROVALS_LIMIT),
      cursor: CursorQuery,
    }),
  },
  responses: {
    200: jsonResponse(z.object({ approvals: z.array(Approval), ...PageFields }), 'Requests, newest first, at most limit of them'),
    400: errorResponse('A bad status or limit (INVALID_QUERY), or a cursor not given by this server (INVALID_CURSOR)'),
    403: errors[403],
  },
});
const getRoute = createRoute({
  method: 'get',
  path: '/approvals/{id}',
  summary: 'Read an approval request',
  request: { params: IdParams },
  responses: { 200: ok('The request'), 403: errors[403], 404: errors[404] },
});
const decideRoute = (verb: 'approve' | 'deny') =>
  createRoute({
    method: 'post',
    path: `/approvals/{id}/${verb}`,
    summary: verb === 'approve' ? 'Approve a held call (signed)' : 'Deny a held call (signed)',
    middleware: [members(), people("a model's key cannot decide a held call; a person approves or denies it")] as const,
    request: { params: IdParams, body: jsonBody(DecideBody) },
    responses: { 200: ok('The decided request with its signature'), ...errors },
  });
const claimRoute = createRoute({
  method: 'post',
  path: '/approvals/{id}/claim',
  summary: 'Claim an approved request, once',
  request: { params: IdParams, body: jsonBody(ClaimBody) },
  responses: { 200: ok('The claimed request'), ...errors },
});

/**
 * Whether the principal sees a held call's arguments: its eligible approvers, who decide on them, and owners
 * and admins, who see them in the decision log too (docs/api.md); no one else, agents included.
 */
function seesArguments(principal: Principal, row: ApprovalRow): boolean {
  if (principal.kind !== 'member') return false;
  const member = principal.member;
  return member.role === 'owner' || member.role === 'admin' || isEligible(member, row);
}

async function present(ctx: AppContext, principal: Principal, row: ApprovalRow, people?: Map<string, MemberRow>): Promise<Approval> {
  people ??= membersById(await ctx.state.members());
  const decision = await ctx.state.findDecision(row.call_id);
  const shown = seesArguments(principal, row);
  return {
    id: row.id,
    call_id: row.call_id,
    agent: row.agent,
    tool: row.tool,
    arguments: shown ? ((readStoredJson(decision?.arguments) ?? null) as Record<string, unknown> | null) : null,
    arguments_shown: shown,
    arguments_digest: row.arguments_digest,
    amount: decision?.amount ?? null,
    currency: decision?.currency ?? null,
    policy_document: row.policy_document,
    policy_sequence: row.policy_sequence,
    rule: row.rule,
    description: row.description,
    approvers: listedApprovers(row),
    eligible_approvers: eligibleApprovers(row, people),
    status: statusOf(row, ctx.now()),
    expires_at: row.expires_at,
    decided_by: row.decided_by,
    // A decider since removed is no current member, but is still named: their row stays (docs/security.md, "Roles").
    decided_by_name:
      deciderName(row, people) ?? (row.decided_by === null ? null : ((await ctx.state.findMember(row.decided_by))?.name ?? null)),
    decided_at: row.decided_at,
    reason: row.reason,
    signature: row.signature,
    signed_content: row.signed_content,
    claimed_at: row.claimed_at,
    held_at: row.created_at,
    created_at: row.created_at,
    // Read from the held call's decision, as its amount is.
    via: decision?.via ?? 'http',
  };
}

/** The request, when the principal may see it: any member, or the agent it belongs to. */
async function visible(ctx: AppContext, principal: Principal, id: string): Promise<ApprovalRow> {
  const row = await ctx.state.findApproval(id);
  if (principal.kind === 'agent') {
    if (!row) throw notFound('approval', `no approval request ${id}`);
    if (row.agent !== principal.agent) throw new ApiError('AGENT_MISMATCH', `this request belongs to ${row.agent}`);
    return row;
  }
  if (!row) throw notFound('approval', `no approval request ${id}`);
  return row;
}

export function approvalRoutes() {
  const app = router();

  app.openapi(listRoute, async (c) => {
    const ctx = c.get('ctx');
    const { status, limit, cursor } = c.req.valid('query');
    const page = await ctx.state.listApprovals(status, ctx.now(), limit ?? DEFAULT_APPROVALS_LIMIT, pageKeyOf(cursor));
    const principal = c.get('principal');
    const people = membersById(await ctx.state.members());
    const approvals = await Promise.all(page.rows.map((r) => present(ctx, principal, r, people)));
    return exactJson(c, { approvals, has_more: page.more, next_cursor: page.next }, 200);
  });

  app.openapi(getRoute, async (c) => {
    const ctx = c.get('ctx');
    const principal = c.get('principal');
    return exactJson(c, await present(ctx, principal, await visible(ctx, principal, c.req.valid('param').id)), 200);
  });

  for (const verb of ['approve', 'deny'] as const) {
    app.openapi(decideRoute(verb), async (c) => {
      const ctx = c.get('ctx');
      const member = memberOf(c);
      const { id } = c.req.valid('param');
      const { reason } = c.req.valid('json');
      const row = await ctx.state.findApproval(id);
      if (!row) throw notFound('approval', `no approval request ${id}`);
      if (!isEligible(member, row)) {
        throw new ApiError('NOT_ELIGIBLE', 'you are not an eligible approver of this request');
      }
      const outcome = await ctx.state.decideApproval(id, member, verb === 'approve' ? 'approved' : 'denied', reason ?? null, ctx.now());
      if (!outcome.ok) {
        if (outcome.reason === 'expired') throw new ApiError('APPROVAL_EXPIRED', 'the request has expired and can no longer be decided');
        if (outcome.reason === 'already_decided') throw new ApiError('ALREADY_DECIDED', 'the request has been decided already');
        throw notFound('approval', `no approval request ${id}`);
      }
      ctx.events.publish({ type: 'approval', id, status: outcome.row.status });
      return exactJson(c, await present(ctx, c.get('principal'), outcome.row), 200);
    });
  }

  app.openapi(claimRoute, async (c) => {
    const ctx = c.get('ctx');
    const principal = c.get('principal');
    if (principal.kind !== 'agent') throw new ApiError('AGENT_KEY_REQUIRED', 'only the agent claims its approved calls');
    const { id } = c.req.valid('param');
    await visible(ctx, principal, id);
    const outcome = await claimHeldCall(ctx, id, c.req.valid('json').arguments);
    if (!outcome.ok) {
      if (outcome.reason === 'not_found') throw notFound('approval', `no approval request ${id}`);
      throw new ApiError(outcome.code, outcome.message);
    }
    return exactJson(c, await present(ctx, principal, outcome.row), 200);
  });
  return app;
}
