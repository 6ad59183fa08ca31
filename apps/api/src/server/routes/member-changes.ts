// Routes: members as the product manages them (docs/security.md, "Roles"): owners and admins add members, change
// roles and remove members; any member lists the members; every change to members and keys (keys.ts) is judged by
// one set of rules (state/members/lifecycle.ts) and recorded, and the record is read by owners and admins. A
// model's key (the model grant) manages nothing: a person does.
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { Env } from '../auth.ts';
import { ApiError } from '../errors.ts';
import { router } from '../openapi.ts';
import type { Outcome } from '../state/members/identity-store.ts';
import type { Actor } from '../state/members/lifecycle.ts';
import { type MemberRow, ROLES } from '../state/members/model.ts';
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

const Member = z
  .object({
    id: z.string(),
    name: z.string(),
    role: Role,
    created_at: z.string(),
    removed_at: z.string().nullable().openapi({ description: 'When the member was removed; null while a member.' }),
  })
  .openapi('Member');

const IdentityChange = z
  .object({
    at: z.string(),
    actor: z.string().openapi({ description: 'member:NAME, operator (the CLI with the database) or issuer:URL.' }),
    action: z.enum([
      'member.added',
      'member.role_changed',
      'member.removed',
      'key.created',
      'key.rotated',
      'key.revoked',
      'credential.enrolled',
      'credential.revoked',
    ]),
    subject: z.string().openapi({ description: "The member's name, or agent:NAME for an agent's key." }),
    details: z.record(z.string(), z.string().nullable()),
  })
  .openapi('IdentityChange');

/** A member's name: what a person or an identity provider's claim (an email) calls them. */
const MemberName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._@+-]{0,127}$/, 'a member name is 1-128 letters, digits and . _ @ + -, starting with a letter or digit');

const memberParam = nameParam({ name: 'id', description: 'The member id or name', example: 'ana' });

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

/** What a change made, or its refusal as the API's error (NOT_FOUND naming what is missing). */
export function made<T>(outcome: Outcome<T>, missing: 'member' | 'key' | 'credential'): T {
  if ('ok' in outcome) return outcome.ok;
  const { code, message } = outcome.refusal;
  throw code === 'NOT_FOUND' ? notFound(missing, message) : new ApiError(code, message);
}

export function actorOf(c: Context<Env>): Actor {
  return { kind: 'member', member: memberOf(c) };
}

export function memberRoutesManaged() {
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
  app.openapi(listChangesRoute, async (c) => {
    const { limit, cursor } = c.req.valid('query');
    const page = await c.get('ctx').state.identity.listChanges(limit ?? 100, pageKeyOf(cursor));
    return c.json({ changes: page.rows, has_more: page.more, next_cursor: page.next }, 200);
  });
  return app;
}
