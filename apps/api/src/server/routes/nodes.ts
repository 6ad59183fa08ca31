// Routes: the deciding nodes registered on this data folder (docs/deploy.md, "Several gateways on one data
// folder: the language gate"), each with the policy language revision it decides and whether it is live.
import { createRoute, z } from '@hono/zod-openapi';
import { router } from '../openapi.ts';
import { errorResponse, jsonResponse, members } from './route-kit.ts';

// Published as "gateways" (the path, its operationId, tag and schemas); inside they are the registry's nodes
// (state/nodes/model.ts).
const NodeSchema = z
  .object({
    id: z.string().openapi({ description: 'Random for each start of the node.' }),
    version: z.string().openapi({ description: 'The Tollgate version the node runs.' }),
    language_revision: z
      .number()
      .int()
      .min(1)
      .max(3)
      .openapi({ description: 'The highest policy language revision the node decides (its --language-revision, else 3).' }),
    started_at: z.iso.datetime({ offset: true }),
    last_seen: z.iso.datetime({ offset: true }).openapi({ description: 'Its last heartbeat.' }),
    live: z.boolean().openapi({ description: 'Whether its last heartbeat is recent enough (three heartbeats) to count it.' }),
  })
  .openapi('Gateway');

const listRoute = createRoute({
  method: 'get',
  path: '/gateways',
  operationId: 'listGateways',
  tags: ['gateways'],
  summary: 'The gateway nodes deciding calls over this data folder, and the language revision each decides (owner or admin)',
  middleware: [members('owner', 'admin')] as const,
  responses: {
    200: jsonResponse(z.object({ gateways: z.array(NodeSchema) }).openapi('Gateways'), 'Every registered node, oldest first'),
    401: errorResponse('A missing or unknown key'),
    403: errorResponse('A lacking role'),
  },
});

/** GET /v1/gateways. */
export function nodeRoutes() {
  const app = router();
  app.openapi(listRoute, async (c) => c.json({ gateways: await c.get('ctx').state.listNodes() }, 200));
  return app;
}
