// Routes: approvals. Members list and read requests (the arguments only its eligible approvers, owners and
// admins see); an eligible member approves or denies one once, signed with a key they hold (a passkey or a device
// key, after asking for the content to sign) or by the server with their custodial key (approvals/decide.ts,
// docs/approver-keys.md); the agent reads its own and claims an approved one once.
import { createRoute, z } from '@hono/zod-openapi';
import { decideHeldCall, decisionChallenge, type ProofBody } from '../approvals/decide.ts';
import { explainHold } from '../approvals/explain-hold.ts';
import { relyingParty } from '../approvals/relying-party-of-request.ts';
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
  EngineObject,
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
    signature: z.string().nullable().openapi({
      description:
        "Ed25519 over signed_content, base64 (a custodial or device key); a passkey's assertion signature, base64url (proof says how to check it).",
    }),
    signed_content: z.string().nullable(),
    proof: z.record(z.string(), z.string()).nullable().openapi({
      description:
        "How a member-held key signed it: {kind: 'device', credential_id, signature} or a passkey's {kind: 'passkey', credential_id, authenticator_data, client_data_json, signature}; null for a custodial signature.",
    }),
    quorum: z.number().int().openapi({ description: 'How many distinct eligible members must approve (approvers.quorum; 1 by default).' }),
    votes: z
      .array(z.object({ member: z.string(), name: z.string().nullable(), decision: z.enum(['approved', 'denied']), decided_at: DateTime }))
      .openapi({ description: 'For a request that needs a quorum: each member’s signed vote so far, oldest first.' }),
    approvals_still_needed: z
      .number()
      .int()
      .openapi({ description: 'How many more approvals the call needs before it runs; 0 once approved or ended.' }),
    claimed_at: DateTime.nullable(),
    held_at: DateTime.openapi({ description: 'When the gate held the call (the same instant as created_at).' }),
    created_at: DateTime,
    via: CallVia,
  })
  .openapi('Approval');
type Approval = z.infer<typeof Approval>;

/** Why the call was held, on a single read only (approvals/explain-hold.ts): recomputed, so not for every row of a list. */
const HoldExplanation = z
  .object({
    explanation: EngineObject(
      'The explanation of the held decision by the policy version that held it: the rule, its amount bounds and conditions (docs/policy.md).',
    ),
    trial: z
      .object({ candidate: z.number().int(), decision: z.string(), rule: z.string().nullable() })
      .nullable()
      .openapi({ description: 'What the candidate version under trial would decide; null when no trial of the policy runs.' }),
  })
  .openapi('HoldExplanation');
const ApprovalRead = Approval.extend({
  explanation: HoldExplanation.nullable().openapi({
    description:
      'Why the call was held, for members; null for the agent, once the arguments are forgotten, or when the policy version cannot be read.',
  }),
}).openapi('ApprovalRead');

const IdParams = z.object({
  id: nameParam({ name: 'id', description: 'The approval request id', example: '6f1c2d3e-0000-4000-8000-000000000000' }, 64),
});
const B64 = z.string().min(1).max(16_384);
const PasskeyResponse = z
  .object({
    id: B64,
    rawId: B64,
    type: z.literal('public-key'),
    response: z.object({ clientDataJSON: B64, authenticatorData: B64, signature: B64, userHandle: B64.optional() }),
    authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
    clientExtensionResults: z.record(z.string(), z.unknown()),
  })
  .openapi('PasskeyAssertion', { description: 'What startAuthentication of @simplewebauthn/browser answers.' });
const Proof = z
  .discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('passkey'), credential_id: B64, response: PasskeyResponse }),
    z.strictObject({ kind: z.literal('device'), credential_id: z.string().min(1).max(200), signature: B64 }),
  ])
  .openapi('ApprovalProof');
const DecideBody = z
  .strictObject({
    reason: z.string().max(2000).optional(),
    signed_content: z
      .string()
      .min(1)
      .max(64 * 1024)
      .optional()
      .openapi({ description: 'The content the challenge gave, as signed.' }),
    proof: Proof.optional(),
  })
  .refine((b) => (b.signed_content === undefined) === (b.proof === undefined), {
    message: 'signed_content and proof go together: both for a member-held key, neither for a custodial decision',
    path: ['proof'],
  })
  .openapi('ApprovalDecisionBody');
const ChallengeBody = z.strictObject({ decision: z.enum(['approved', 'denied']) }).openapi('ApprovalChallengeBody');
const Challenge = z
  .object({
    content: z.string().openapi({ description: 'The canonical JSON to sign (docs/approver-keys.md, "What is signed").' }),
    challenge: z.string().openapi({ description: "The base64url SHA-256 of content's UTF-8: a passkey assertion's challenge." }),
    decided_at: DateTime,
    expires_at: DateTime.openapi({ description: 'After this the content is stale (PROOF_STALE): ask again.' }),
    passkey: z
      .record(z.string(), z.unknown())
      .nullable()
      .openapi({ description: 'WebAuthn request options for startAuthentication; null when the member holds no passkey here.' }),
  })
  .openapi('ApprovalChallenge');
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
  responses: { 200: jsonResponse(ApprovalRead, 'The request, with why it was held'), 403: errors[403], 404: errors[404] },
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
const challengeRoute = createRoute({
  method: 'post',
  path: '/approvals/{id}/challenge',
  summary: 'The content to sign to decide a held call with a key you hold',
  middleware: [members(), people("a model's key cannot decide a held call; a person approves or denies it")] as const,
  request: { params: IdParams, body: jsonBody(ChallengeBody) },
  responses: {
    200: jsonResponse(Challenge, 'The content, its challenge and your passkeys as WebAuthn options'),
    400: errors[400],
    403: errors[403],
    404: errors[404],
    409: errors[409],
  },
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
  const votes = row.quorum > 1 ? await ctx.state.listVotes(row.id) : [];
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
    proof: readProof(row.proof),
    quorum: row.quorum,
    votes: votes.map((v) => ({
      member: v.member_id,
      name: people?.get(v.member_id)?.name ?? null,
      decision: v.decision,
      decided_at: v.decided_at,
    })),
    approvals_still_needed: row.status === 'pending' ? Math.max(0, row.quorum - votes.filter((v) => v.decision === 'approved').length) : 0,
    claimed_at: row.claimed_at,
    held_at: row.created_at,
    created_at: row.created_at,
    // Read from the held call's decision, as its amount is.
    via: decision?.via ?? 'http',
  };
}

/** A stored proof as the API shows it: its string parts; null when custodial (or not readable). */
function readProof(text: string | null): Record<string, string> | null {
  const value = text === null ? null : readStoredJson(text);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
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

/** Where passkeys are bound: the operator's relying party id (serve's --rp-id), else the console's host. */
export interface ApprovalRouteOptions {
  rpId?: string | undefined;
}

export function approvalRoutes(options: ApprovalRouteOptions = {}) {
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
    const row = await visible(ctx, principal, c.req.valid('param').id);
    // Members only: the agent is told of its decision at its own disclosure level (the gate's answer), never more.
    const args = principal.kind === 'member' ? (readStoredJson((await ctx.state.findDecision(row.call_id))?.arguments) ?? null) : null;
    const [approval, explanation] = await Promise.all([present(ctx, principal, row), explainHold(ctx, row, args)]);
    return exactJson(c, { ...approval, explanation }, 200);
  });

  app.openapi(challengeRoute, async (c) => {
    const ctx = c.get('ctx');
    const { id } = c.req.valid('param');
    const answer = await decisionChallenge(ctx, memberOf(c), id, c.req.valid('json').decision, relyingParty(c, options.rpId));
    return exactJson(c, answer as z.infer<typeof Challenge>, 200);
  });

  for (const verb of ['approve', 'deny'] as const) {
    app.openapi(decideRoute(verb), async (c) => {
      const ctx = c.get('ctx');
      const { id } = c.req.valid('param');
      const { reason, signed_content, proof } = c.req.valid('json');
      const row = await decideHeldCall(ctx, memberOf(c), id, {
        decision: verb === 'approve' ? 'approved' : 'denied',
        reason: reason ?? null,
        signed: signed_content !== undefined && proof !== undefined ? { content: signed_content, proof: proof as ProofBody } : undefined,
        rp: relyingParty(c, options.rpId),
      });
      ctx.events.publish({ type: 'approval', id, status: row.status });
      return exactJson(c, await present(ctx, c.get('principal'), row), 200);
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
