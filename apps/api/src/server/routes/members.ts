// Routes: members. A member's public signing key (PEM), so anyone can verify the approvals they signed.
import { createRoute, z } from '@hono/zod-openapi';
import { ApiError } from '../errors.ts';
import { router } from '../openapi.ts';
import { findMember } from '../state/members.ts';

const ErrorSchema = z.object({ error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }) });

const PublicKey = z
  .object({
    id: z.string(),
    name: z.string(),
    algorithm: z.literal('Ed25519'),
    public_key: z.string().openapi({ description: 'SPKI PEM; verifies approval signatures over signed_content.' }),
  })
  .openapi('MemberPublicKey');

const publicKeyRoute = createRoute({
  method: 'get',
  path: '/members/{id}/public-key',
  summary: "A member's public signing key",
  request: { params: z.object({ id: z.string().min(1).max(128) }) },
  responses: {
    200: { description: 'The public key', content: { 'application/json': { schema: PublicKey } } },
    404: { description: 'No such member', content: { 'application/json': { schema: ErrorSchema } } },
  },
});

export function memberRoutes() {
  const app = router();
  app.openapi(publicKeyRoute, (c) => {
    const { id } = c.req.valid('param');
    const member = findMember(c.get('ctx').db, id);
    if (!member || member.id !== id) throw new ApiError(404, 'NOT_FOUND', `no member ${id}`);
    return c.json({ id: member.id, name: member.name, algorithm: 'Ed25519' as const, public_key: member.public_key }, 200);
  });
  return app;
}
