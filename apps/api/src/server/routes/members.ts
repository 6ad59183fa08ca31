// Routes: members. Who a key belongs to (for the console), and a member's public signing key (PEM) with every
// credential of theirs (routes/credentials.ts), so anyone can verify the approvals they signed.
import { createRoute, z } from '@hono/zod-openapi';
import { router } from '../openapi.ts';
import { Credential, credentialsOfMember, keyFingerprint } from './credentials.ts';
import { nameParam } from './path-params.ts';
import { errorResponse, jsonResponse, memberOf, members, notFound } from './route-kit.ts';

const PublicKey = z
  .object({
    id: z.string(),
    name: z.string(),
    algorithm: z.literal('Ed25519'),
    public_key: z.string().openapi({ description: 'SPKI PEM; verifies approval signatures over signed_content.' }),
    fingerprint: z.string().openapi({
      description: "SHA256: and the unpadded base64 of the SHA-256 of the key's SPKI DER, e.g. SHA256:3q2+7w…",
    }),
    credentials: z.array(Credential).openapi({
      description:
        'Every credential of the member, custodial first: passkeys and device keys verify what they signed (docs/approver-keys.md).',
    }),
  })
  .openapi('MemberPublicKey');

const publicKeyRoute = createRoute({
  method: 'get',
  path: '/members/{id}/public-key',
  operationId: 'getMemberPublicKey',
  tags: ['members'],
  summary: "A member's public signing key",
  request: {
    params: z.object({ id: nameParam({ name: 'id', description: 'The member id', example: '6f1c2d3e-0000-4000-8000-000000000000' }) }),
  },
  responses: {
    200: jsonResponse(PublicKey, 'The public key'),
    404: errorResponse('No such member'),
  },
});

const Me = z
  .object({
    id: z.string(),
    name: z.string(),
    role: z.enum(['owner', 'admin', 'approver', 'developer', 'viewer']),
    grants: z.array(z.string()),
  })
  .openapi('Me');

const meRoute = createRoute({
  method: 'get',
  path: '/me',
  operationId: 'getMe',
  tags: ['members'],
  summary: 'The member the key belongs to: id, name, role and grants',
  middleware: [members()] as const,
  responses: {
    200: jsonResponse(Me, 'The member'),
    403: errorResponse("An agent's key"),
  },
});

export function memberRoutes() {
  const app = router();
  app.openapi(meRoute, (c) => {
    const principal = c.get('principal');
    const member = memberOf(c);
    return c.json({ id: member.id, name: member.name, role: member.role, grants: [...principal.grants] }, 200);
  });
  app.openapi(publicKeyRoute, async (c) => {
    const { id } = c.req.valid('param');
    const member = await c.get('ctx').state.findMember(id);
    if (!member || member.id !== id) throw notFound('member', `no member ${id}`);
    const { id: memberId, name, public_key } = member;
    const credentials = await credentialsOfMember(c.get('ctx'), member);
    return c.json(
      { id: memberId, name, algorithm: 'Ed25519' as const, public_key, fingerprint: keyFingerprint(public_key), credentials },
      200,
    );
  });
  return app;
}
