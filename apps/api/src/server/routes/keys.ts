// Routes: keys as the product manages them (docs/security.md, "Keys"): owners and admins make keys for members and
// agents and see every key; any member lists, rotates and revokes their own. A key is shown once, in the answer
// that made it; lists name it by id and hint. Refusals come from the one judge (state/members/lifecycle.ts).
import { createRoute, z } from '@hono/zod-openapi';
import { agentNameProblem } from '../call-request.ts';
import { ApiError } from '../errors.ts';
import { router } from '../openapi.ts';
import { type KeyInfo, MAX_OVERLAP_SECONDS } from '../state/members/lifecycle.ts';
import { GRANTS, keyStatus, ROLE_GRANTS } from '../state/members/model.ts';
import { actorOf, made } from './member-changes.ts';
import { nameParam } from './path-params.ts';
import { ERRORS, errorResponse, jsonRequest, jsonResponse, LOCATION, memberOf, members, notFound, people } from './route-kit.ts';

const Grant = z.enum(GRANTS);

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

/** An instant to come, as RFC 3339 with its offset; stored as UTC. */
const Expiry = z.iso.datetime({ offset: true }).openapi({ description: 'RFC 3339, in the future; the key is refused from then on.' });

const keyParam = nameParam({ name: 'id', description: 'The key id', example: '6f1c2d3e-0000-4000-8000-000000000000' });

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

function keyView(info: KeyInfo, now: Date) {
  const { member_role: _role, ...rest } = info;
  return { ...rest, status: keyStatus(info, now) };
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

export function keyRoutes() {
  const app = router();
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
  return app;
}
