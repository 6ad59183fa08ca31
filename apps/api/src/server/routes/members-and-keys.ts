// Routes: members and keys as the product manages them (docs/security.md): owners and admins add members, change
// roles, remove members and make keys; any member lists the members, and lists, rotates and revokes their own keys;
// every change is judged by one set of rules (state/members/lifecycle.ts) and recorded, and the record is read by
// owners and admins. A model's key (the model grant) manages nothing: a person does.
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { Env } from '../auth.ts';
import { agentNameProblem } from '../call-request.ts';
import { ApiError } from '../errors.ts';
import { router } from '../openapi.ts';
import type { Outcome } from '../state/members/identity-store.ts';
import { type Actor, type KeyInfo, MAX_OVERLAP_SECONDS } from '../state/members/lifecycle.ts';
import { GRANTS, keyStatus, type MemberRow, ROLE_GRANTS, ROLES } from '../state/members/model.ts';
import { CursorQuery, PageFields, pageKeyOf } from './paging.ts';
import { nameParam } from './path-params.ts';
import {
  ERRORS,
  errorResponse,
  jsonRequest,
  jsonResponse,
  LOCATION,
  limitQuery,
  memberOf,
  members,
  notFound,
  people,
} from './route-kit.ts';

const Role = z.enum(ROLES);
const Grant = z.enum(GRANTS);

const Member = z
  .object({
    id: z.string(),
    name: z.string(),
    role: Role,
    created_at: z.string(),
    removed_at: z.string().nullable().openapi({ description: 'When the member was removed; null while a member.' }),
  })
  .openapi('Member');

const Key = z
  .object({
    id: z.string(),
    name: z.string().nullable(),
    hint: z.string().nullable().openapi({ description: "The key's last four characters (null for a key made before hints)." }),
    member_id: z.string().nullable(),
    member_name: z.string().nullable(),
    agent: z.string().nullable(),
    grants: z.array(Grant),
    status: z.enum(['active', 'expired', 'revoked']),
    created_at: z.string(),
    created_by: z.string().nullable(),
    expires_at: z.string().nullable(),
    revoked_at: z.string().nullable(),
    revoked_by: z.string().nullable(),
    rotated_to: z.string().nullable().openapi({ description: 'The key that replaced this one, when it was rotated.' }),
    last_used_at: z.string().nullable().openapi({ description: 'When the key last authenticated, to the minute.' }),
  })
  .openapi('Key');

const NewKey = Key.extend({
  key: z.string().openapi({ description: 'The key itself: shown this once, never again (only its hash is kept).' }),
}).openapi('NewKey');

const IdentityChange = z
  .object({
    at: z.string(),
    actor: z.string().openapi({ description: 'member:NAME, operator (the CLI with the database) or issuer:URL.' }),
    action: z.enum(['member.added', 'member.role_changed', 'member.removed', 'key.created', 'key.rotated', 'key.revoked']),
    subject: z.string().openapi({ description: "The member's name, or agent:NAME for an agent's key." }),
    details: z.record(z.string(), z.string().nullable()),
  })
  .openapi('IdentityChange');

/** A member's name: what a person or an identity provider's claim (an email) calls them. */
const MemberName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._@+-]{0,127}$/, 'a member name is 1-128 letters, digits and . _ @ + -, starting with a letter or digit');

/** An instant to come, as RFC 3339 with its offset; stored as UTC. */
const Expiry = z.iso.datetime({ offset: true }).openapi({ description: 'RFC 3339, in the future; the key is refused from then on.' });

const memberParam = nameParam({ name: 'id', description: 'The member id or name', example: 'ana' });
const keyParam = nameParam({ name: 'id', description: 'The key id', example: '6f1c2d3e-0000-4000-8000-000000000000' });

const listMembersRoute = createRoute({
  method: 'get',
  path: '/members',
  operationId: 'listMembers',
  tags: ['members'],
  summary: 'The current members and their roles',
  middleware: [members()] as const,
  responses: { 200: jsonResponse(z.object({ members: z.array(Member) }), 'The members, oldest first'), 401: ERRORS[401], 403: ERRORS[403] },
});

const addMemberRoute = createRoute({
  method: 'post',
  path: '/members',
  operationId: 'addMember',
  tags: ['members'],
  summary: 'Adds a member with a role (a removed member of that name comes back)',
  middleware: [members('owner', 'admin'), people("a model's key cannot manage members; a person does")] as const,
  request: jsonRequest(z.object({ name: MemberName, role: Role }).strict()),
  responses: {
    201: { ...jsonResponse(Member, 'The member'), headers: LOCATION },
    400: ERRORS[400],
    401: ERRORS[401],
    403: errorResponse(
      'Not an owner or admin (ROLE_REQUIRED), a model key (PERSON_REQUIRED), or an admin making an owner (OWNER_REQUIRED)',
    ),
    409: errorResponse('A member of that name exists (MEMBER_EXISTS)'),
  },
});

const setRoleRoute = createRoute({
  method: 'patch',
  path: '/members/{id}',
  operationId: 'setMemberRole',
  tags: ['members'],
  summary: "Changes a member's role; their keys' grants follow",
  middleware: [members(), people("a model's key cannot manage members; a person does")] as const,
  request: { params: z.object({ id: memberParam }), ...jsonRequest(z.object({ role: Role }).strict()) },
  responses: {
    200: jsonResponse(Member, 'The member'),
    400: ERRORS[400],
    401: ERRORS[401],
    403: errorResponse('ROLE_REQUIRED, PERSON_REQUIRED, OWNER_REQUIRED, or OWN_ROLE (raising your own role)'),
    404: errorResponse('No such member'),
    409: errorResponse('The last owner would be demoted (LAST_OWNER)'),
  },
});

const removeMemberRoute = createRoute({
  method: 'delete',
  path: '/members/{id}',
  operationId: 'removeMember',
  tags: ['members'],
  summary: 'Removes a member and revokes their keys at once',
  middleware: [members('owner', 'admin'), people("a model's key cannot manage members; a person does")] as const,
  request: { params: z.object({ id: memberParam }) },
  responses: {
    200: jsonResponse(Member, 'The member as removed'),
    401: ERRORS[401],
    403: errorResponse('ROLE_REQUIRED, PERSON_REQUIRED, or OWNER_REQUIRED (an admin removing an owner)'),
    404: errorResponse('No such member'),
    409: errorResponse('The last owner (LAST_OWNER)'),
  },
});

const listKeysRoute = createRoute({
  method: 'get',
  path: '/keys',
  operationId: 'listKeys',
  tags: ['keys'],
  summary: 'Keys (never the keys themselves): all for owners and admins, your own for anyone else',
  middleware: [members()] as const,
  request: {
    query: z.object({
      member: z.string().min(1).max(128).optional().openapi({ description: "Only this member's keys (id or name)" }),
      agent: z.string().min(1).max(128).optional().openapi({ description: "Only this agent's keys" }),
    }),
  },
  responses: {
    200: jsonResponse(z.object({ keys: z.array(Key) }), 'The keys, oldest first'),
    400: errorResponse('Both member and agent (INVALID_QUERY)'),
    401: ERRORS[401],
    403: errorResponse("Another member's or an agent's keys, asked for by one who is not an owner or admin (ROLE_REQUIRED)"),
    404: errorResponse('No such member'),
  },
});

const createKeyRoute = createRoute({
  method: 'post',
  path: '/keys',
  operationId: 'createKey',
  tags: ['keys'],
  summary: 'Makes a key for a member or an agent, shown once',
  middleware: [members('owner', 'admin'), people("a model's key cannot make keys; a person does")] as const,
  request: jsonRequest(
    z
      .object({
        name: z.string().min(1).max(128).optional().openapi({ description: 'What the key is for, e.g. laptop or ci' }),
        member: z.string().min(1).max(128).optional().openapi({ description: 'The member (id or name) the key is for' }),
        agent: z.string().min(1).max(64).optional().openapi({ description: 'The agent the key is for' }),
        grants: z.array(Grant).max(GRANTS.length).optional().openapi({
          description:
            "The key's grants; left out, a member's key gets its role's (catalogue for owner, admin, developer), an agent's none.",
        }),
        expires_at: Expiry.optional(),
      })
      .strict(),
  ),
  responses: {
    201: { ...jsonResponse(NewKey, 'The key, shown this once'), headers: LOCATION },
    400: ERRORS[400],
    401: ERRORS[401],
    403: errorResponse("ROLE_REQUIRED, PERSON_REQUIRED, or OWNER_REQUIRED (an owner's key, made by an admin)"),
    404: errorResponse('No such member'),
  },
});

const rotateKeyRoute = createRoute({
  method: 'post',
  path: '/keys/{id}/rotate',
  operationId: 'rotateKey',
  tags: ['keys'],
  summary: 'A new key for the same holder; the old one works for the overlap, then is refused as expired',
  middleware: [members(), people("a model's key cannot rotate keys; a person does")] as const,
  request: {
    params: z.object({ id: keyParam }),
    ...jsonRequest(
      z
        .object({
          overlap_seconds: z
            .number()
            .int()
            .min(0)
            .max(MAX_OVERLAP_SECONDS)
            .openapi({ description: 'How long the old key keeps working: 0 (refused at once) to 30 days' }),
          expires_at: Expiry.optional().openapi({ description: "The new key's expiry; left out, none" }),
        })
        .strict(),
    ),
  },
  responses: {
    201: {
      ...jsonResponse(NewKey.extend({ previous: Key }), 'The new key, shown this once, and the old as it now stands'),
      headers: LOCATION,
    },
    400: ERRORS[400],
    401: ERRORS[401],
    403: errorResponse("Another's key, by one who is not an owner or admin (ROLE_REQUIRED); an owner's key by an admin (OWNER_REQUIRED)"),
    404: errorResponse('No such key'),
    409: errorResponse('The key is revoked, expired or rotated already (KEY_NOT_ACTIVE)'),
  },
});

const getKeyRoute = createRoute({
  method: 'get',
  path: '/keys/{id}',
  operationId: 'getKey',
  tags: ['keys'],
  summary: 'One key (never the key itself): any for owners and admins, your own for anyone else',
  middleware: [members()] as const,
  request: { params: z.object({ id: keyParam }) },
  responses: {
    200: jsonResponse(Key, 'The key'),
    401: ERRORS[401],
    404: errorResponse('No such key, or not yours to see'),
  },
});

const revokeKeyRoute = createRoute({
  method: 'post',
  path: '/keys/{id}/revoke',
  operationId: 'revokeKey',
  tags: ['keys'],
  summary: 'Revokes a key: refused (KEY_REVOKED) on its next call on every node',
  middleware: [members(), people("a model's key cannot revoke keys; a person does")] as const,
  request: { params: z.object({ id: keyParam }) },
  responses: {
    200: jsonResponse(Key, 'The key as revoked (revoking it again changes nothing)'),
    401: ERRORS[401],
    403: errorResponse("Another's key, by one who is not an owner or admin (ROLE_REQUIRED)"),
    404: errorResponse('No such key'),
  },
});

const MAX_CHANGES_LIMIT = 500;

const listChangesRoute = createRoute({
  method: 'get',
  path: '/identity/changes',
  operationId: 'listIdentityChanges',
  tags: ['members'],
  summary: 'The record of changes to members and keys: who, what, when; newest first',
  middleware: [members('owner', 'admin')] as const,
  request: { query: z.object({ limit: limitQuery(MAX_CHANGES_LIMIT, 100), cursor: CursorQuery }) },
  responses: {
    200: jsonResponse(z.object({ changes: z.array(IdentityChange), ...PageFields }), 'Changes, newest first, at most limit of them'),
    400: errorResponse('A bad limit (INVALID_QUERY), or a cursor not given by this server (INVALID_CURSOR)'),
    401: ERRORS[401],
    403: ERRORS[403],
  },
});

function memberView({ id, name, role, created_at, removed_at }: MemberRow) {
  return { id, name, role, created_at, removed_at };
}

function keyView(info: KeyInfo, now: Date) {
  const { member_role: _role, ...rest } = info;
  return { ...rest, status: keyStatus(info, now) };
}

/** What a change made, or its refusal as the API's error (NOT_FOUND naming what is missing). */
function made<T>(outcome: Outcome<T>, missing: 'member' | 'key'): T {
  if ('ok' in outcome) return outcome.ok;
  const { code, message } = outcome.refusal;
  throw code === 'NOT_FOUND' ? notFound(missing, message) : new ApiError(code, message);
}

function actorOf(c: Context<Env>): Actor {
  return { kind: 'member', member: memberOf(c) };
}

/** An expiry as stored: UTC, and in the future (an expiry in the past would make a key no one could use). */
function expiryOf(text: string | undefined, now: Date): string | null {
  if (text === undefined) return null;
  const at = new Date(text);
  if (at.getTime() <= now.getTime()) {
    throw new ApiError('INVALID_BODY', 'expires_at is not in the future', {
      issues: [{ path: '/expires_at', code: 'in_the_past', message: `${text} is not in the future` }],
    });
  }
  return at.toISOString();
}

export function memberAndKeyRoutes() {
  const app = router();
  app.openapi(listMembersRoute, async (c) => {
    const rows = await c.get('ctx').state.members();
    return c.json({ members: rows.map(memberView) }, 200);
  });
  app.openapi(addMemberRoute, async (c) => {
    const { name, role } = c.req.valid('json');
    const member = made(await c.get('ctx').state.identity.addMember(name, role, actorOf(c)), 'member');
    return c.json(memberView(member), 201, { Location: `/v1/members/${encodeURIComponent(member.id)}` });
  });
  app.openapi(setRoleRoute, async (c) => {
    const { id } = c.req.valid('param');
    const { role } = c.req.valid('json');
    return c.json(memberView(made(await c.get('ctx').state.identity.setMemberRole(id, role, actorOf(c)), 'member')), 200);
  });
  app.openapi(removeMemberRoute, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(memberView(made(await c.get('ctx').state.identity.removeMember(id, actorOf(c)), 'member')), 200);
  });
  app.openapi(listKeysRoute, async (c) => {
    const query = c.req.valid('query');
    if (query.member !== undefined && query.agent !== undefined) throw new ApiError('INVALID_QUERY', 'give member or agent, not both');
    const me = memberOf(c);
    const state = c.get('ctx').state;
    let memberId: string | undefined;
    if (query.member !== undefined) {
      const member = await state.findMember(query.member);
      if (!member) throw notFound('member', `no member ${query.member}`);
      memberId = member.id;
    }
    const manager = me.role === 'owner' || me.role === 'admin';
    // Anyone else sees their own keys, and only theirs (an agent's key is an owner's or admin's to see).
    if (!manager && (query.agent !== undefined || (memberId !== undefined && memberId !== me.id))) {
      throw new ApiError('ROLE_REQUIRED', "another member's or an agent's keys need the role owner or admin");
    }
    const filter =
      query.agent !== undefined ? { agent: query.agent } : manager ? (memberId === undefined ? {} : { memberId }) : { memberId: me.id };
    const now = new Date();
    return c.json({ keys: (await state.identity.listKeys(filter)).map((k) => keyView(k, now)) }, 200);
  });
  app.openapi(createKeyRoute, async (c) => {
    const body = c.req.valid('json');
    if ((body.member === undefined) === (body.agent === undefined)) {
      throw new ApiError('INVALID_BODY', 'give member or agent: whom the key is for', {
        issues: [{ path: '', code: 'one_holder', message: 'exactly one of member and agent' }],
      });
    }
    if (body.agent !== undefined) {
      const problem = agentNameProblem(body.agent);
      if (problem) throw new ApiError('INVALID_BODY', problem, { issues: [{ path: '/agent', code: 'invalid_agent', message: problem }] });
    }
    const now = new Date();
    const state = c.get('ctx').state;
    let grants = body.grants;
    if (grants === undefined && body.member !== undefined) {
      const member = await state.findMember(body.member);
      grants = member ? [...ROLE_GRANTS[member.role]] : [];
    }
    const holder = body.agent !== undefined ? { agent: body.agent } : { member: body.member as string };
    const request = {
      holder,
      grants: GRANTS.filter((g) => (grants ?? []).includes(g)),
      name: body.name ?? null,
      expiresAt: expiryOf(body.expires_at, now),
    };
    const { key, info } = made(await state.identity.issueKey(request, actorOf(c), now), 'member');
    return c.json({ ...keyView(info, now), key }, 201, { Location: `/v1/keys/${encodeURIComponent(info.id)}` });
  });
  app.openapi(rotateKeyRoute, async (c) => {
    const { id } = c.req.valid('param');
    const { overlap_seconds, expires_at } = c.req.valid('json');
    const now = new Date();
    const outcome = await c.get('ctx').state.identity.rotateKey(id, overlap_seconds, expiryOf(expires_at, now), actorOf(c), now);
    const { key, info, previous } = made(outcome, 'key');
    return c.json({ ...keyView(info, now), key, previous: keyView(previous, now) }, 201, {
      Location: `/v1/keys/${encodeURIComponent(info.id)}`,
    });
  });
  app.openapi(getKeyRoute, async (c) => {
    const { id } = c.req.valid('param');
    const me = memberOf(c);
    const info = await c.get('ctx').state.identity.findKey(id);
    // Another's key is as missing as no key, to one who may not see it.
    if (!info || (me.role !== 'owner' && me.role !== 'admin' && info.member_id !== me.id)) throw notFound('key', `no key ${id}`);
    return c.json(keyView(info, new Date()), 200);
  });
  app.openapi(revokeKeyRoute, async (c) => {
    const { id } = c.req.valid('param');
    const now = new Date();
    return c.json(keyView(made(await c.get('ctx').state.identity.revokeKey(id, actorOf(c), now), 'key'), now), 200);
  });
  app.openapi(listChangesRoute, async (c) => {
    const { limit, cursor } = c.req.valid('query');
    const page = await c.get('ctx').state.identity.listChanges(limit ?? 100, pageKeyOf(cursor));
    return c.json({ changes: page.rows, has_more: page.more, next_cursor: page.next }, 200);
  });
  return app;
}
