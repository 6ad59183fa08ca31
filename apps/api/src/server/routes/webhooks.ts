// Routes: webhook subscriptions (docs/webhooks.md). Owners and admins, by a person's key, subscribe a URL to approval
// events, list and remove subscriptions, rotate a secret (shown once, as the first was), read the recent attempts
// of one and send a delivery again. A URL is checked when subscribed (webhooks/outbound-url.ts) and again at every
// delivery; each change is chained in the record (webhooks/subscriptions.ts).
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { router } from '../openapi.ts';
import { eventsOf, filtersOf, type SubscriptionRow, WEBHOOK_EVENTS } from '../state/webhooks/model.ts';
import { type OutboundPolicy, outboundPolicyOf } from '../webhooks/outbound-url.ts';
import { EXCERPT_BYTES } from '../webhooks/send.ts';
import { rotateWebhookSecret, subscribe, unsubscribe } from '../webhooks/subscriptions.ts';
import { nameParam } from './path-params.ts';
import { ERRORS, errorResponse, jsonRequest, jsonResponse, LOCATION, memberOf, members, notFound, people } from './route-kit.ts';

const Names = z.array(z.string().min(1).max(200)).min(1).max(100);
const Filters = z
  .strictObject({ agents: Names.optional(), tools: Names.optional(), policies: Names.optional() })
  .openapi('WebhookFilters', { description: 'Each list given must name the call’s agent, tool or policy document.' });

const Webhook = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENTS)),
    filters: Filters,
    include_arguments: z.boolean(),
    format: z.enum(['standard', 'slack']),
    created_at: z.string(),
    created_by: z.string(),
  })
  .openapi('Webhook');
const NewWebhook = Webhook.extend({
  secret: z.string().openapi({ description: 'whsec_ and base64 of 32 random bytes: shown this once (Standard Webhooks).' }),
}).openapi('NewWebhook');
const Delivery = z
  .object({
    id: z.string().openapi({ description: 'The delivery (its webhook-id, the same on every attempt).' }),
    type: z.string(),
    attempt: z.number().int(),
    outcome: z.enum(['delivered', 'failed']),
    status: z
      .enum(['pending', 'delivered', 'failed'])
      .openapi({ description: 'The delivery now: pending (a retry is due), delivered, failed (given up).' }),
    http_status: z.number().int().nullable(),
    latency_ms: z.number().int(),
    error: z.string().nullable(),
    excerpt: z
      .string()
      .nullable()
      .openapi({ description: `At most ${EXCERPT_BYTES} bytes of the answer.` }),
    node: z.string(),
    at: z.string(),
  })
  .openapi('WebhookAttempt');

const idParam = nameParam({ name: 'id', description: 'The webhook id', example: 'wh_6f1c2d3e00004000' });
const deliveryParam = nameParam({ name: 'delivery', description: 'The delivery id', example: 'msg_6f1c2d3e-0000-4000-8000-000000000000' });
const PERSON = "a model's key cannot manage webhooks; a person does";
const forbidden = errorResponse('ROLE_REQUIRED (owners and admins) or PERSON_REQUIRED');
const missing = errorResponse('No such webhook (or delivery)');

const createWebhookRoute = createRoute({
  method: 'post',
  path: '/webhooks',
  summary: 'Subscribe a URL to approval events; the secret is shown once',
  middleware: [members('owner', 'admin'), people(PERSON)] as const,
  request: jsonRequest(
    z
      .strictObject({
        url: z.string().min(1).max(2048),
        events: z.array(z.enum(WEBHOOK_EVENTS)).min(1).max(WEBHOOK_EVENTS.length),
        filters: Filters.optional(),
        include_arguments: z.boolean().optional().openapi({ description: "The held call's arguments in the payload (default false)." }),
        format: z.enum(['standard', 'slack']).optional(),
      })
      .openapi('WebhookBody'),
  ),
  responses: {
    201: { ...jsonResponse(NewWebhook, 'The subscription with its secret, shown this once'), headers: LOCATION },
    400: errorResponse('A bad body (INVALID_BODY) or a URL refused (WEBHOOK_URL_REFUSED)'),
    401: ERRORS[401],
    403: forbidden,
  },
});
const listWebhooksRoute = createRoute({
  method: 'get',
  path: '/webhooks',
  summary: 'The webhook subscriptions (never their secrets)',
  middleware: [members('owner', 'admin'), people(PERSON)] as const,
  responses: { 200: jsonResponse(z.object({ webhooks: z.array(Webhook) }), 'Oldest first'), 401: ERRORS[401], 403: forbidden },
});
const getWebhookRoute = createRoute({
  method: 'get',
  path: '/webhooks/{id}',
  summary: 'A webhook subscription',
  middleware: [members('owner', 'admin'), people(PERSON)] as const,
  request: { params: z.object({ id: idParam }) },
  responses: { 200: jsonResponse(Webhook, 'The subscription'), 401: ERRORS[401], 403: forbidden, 404: missing },
});
const deleteWebhookRoute = createRoute({
  method: 'delete',
  path: '/webhooks/{id}',
  summary: 'Remove a subscription; its pending deliveries are given up',
  middleware: [members('owner', 'admin'), people(PERSON)] as const,
  request: { params: z.object({ id: idParam }) },
  responses: { 200: jsonResponse(Webhook, 'The removed subscription'), 401: ERRORS[401], 403: forbidden, 404: missing },
});
const rotateSecretRoute = createRoute({
  method: 'post',
  path: '/webhooks/{id}/rotate-secret',
  summary: 'A new signing secret, shown once; the old one signs nothing more',
  middleware: [members('owner', 'admin'), people(PERSON)] as const,
  request: { params: z.object({ id: idParam }) },
  responses: { 200: jsonResponse(NewWebhook, 'The subscription with its new secret'), 401: ERRORS[401], 403: forbidden, 404: missing },
});
const deliveriesRoute = createRoute({
  method: 'get',
  path: '/webhooks/{id}/deliveries',
  summary: "A subscription's recent delivery attempts",
  middleware: [members('owner', 'admin'), people(PERSON)] as const,
  request: { params: z.object({ id: idParam }) },
  responses: {
    200: jsonResponse(z.object({ deliveries: z.array(Delivery) }), 'The last 100 attempts, newest first'),
    401: ERRORS[401],
    403: forbidden,
    404: missing,
  },
});
const redeliverRoute = createRoute({
  method: 'post',
  path: '/webhooks/{id}/deliveries/{delivery}/redeliver',
  summary: 'Send a delivery again now, with a fresh retry schedule',
  middleware: [members('owner', 'admin'), people(PERSON)] as const,
  request: { params: z.object({ id: idParam, delivery: deliveryParam }) },
  responses: {
    202: jsonResponse(z.object({ id: z.string(), status: z.literal('pending') }), 'Queued for the delivery worker'),
    401: ERRORS[401],
    403: forbidden,
    404: missing,
  },
});

export function webhookView(row: SubscriptionRow): z.infer<typeof Webhook> {
  return {
    id: row.id,
    url: row.url,
    events: eventsOf(row) as z.infer<typeof Webhook>['events'],
    filters: filtersOf(row),
    include_arguments: row.include_arguments === 1,
    format: row.format,
    created_at: row.created_at,
    created_by: row.created_by,
  };
}

export interface WebhookRouteOptions {
  /** Where deliveries may go (the operator's TOLLGATE_WEBHOOKS_ALLOW_HTTP and _ALLOW_PRIVATE unless given). */
  outbound?: OutboundPolicy;
}

export function webhookRoutes(options: WebhookRouteOptions = {}) {
  const app = router();
  const found = async (c: Context, id: string): Promise<SubscriptionRow> => {
    const row = await (c.get('ctx') as AppContext).state.webhooks.find(id);
    if (!row) throw notFound('webhook', `no webhook ${id}`);
    return row;
  };

  app.openapi(createWebhookRoute, async (c) => {
    const ctx = c.get('ctx');
    const body = c.req.valid('json');
    const made = await subscribe(ctx.state, body, memberOf(c).name, ctx.now(), options.outbound ?? outboundPolicyOf());
    if (!made.ok) throw new ApiError('WEBHOOK_URL_REFUSED', `the URL is refused: ${made.reason}`);
    const { row, secret } = made;
    return c.json({ ...webhookView(row), secret }, 201, { Location: `/v1/webhooks/${row.id}` });
  });

  app.openapi(listWebhooksRoute, async (c) => c.json({ webhooks: (await c.get('ctx').state.webhooks.list()).map(webhookView) }, 200));

  app.openapi(getWebhookRoute, async (c) => c.json(webhookView(await found(c, c.req.valid('param').id)), 200));

  app.openapi(deleteWebhookRoute, async (c) => {
    const ctx = c.get('ctx');
    const { id } = c.req.valid('param');
    const row = await unsubscribe(ctx.state, id, memberOf(c).name, ctx.now());
    if (!row) throw notFound('webhook', `no webhook ${id}`);
    return c.json(webhookView(row), 200);
  });

  app.openapi(rotateSecretRoute, async (c) => {
    const ctx = c.get('ctx');
    const { id } = c.req.valid('param');
    const rotated = await rotateWebhookSecret(ctx.state, id, memberOf(c).name, ctx.now());
    if (!rotated) throw notFound('webhook', `no webhook ${id}`);
    return c.json({ ...webhookView(rotated.row), secret: rotated.secret }, 200);
  });

  app.openapi(deliveriesRoute, async (c) => {
    const row = await found(c, c.req.valid('param').id);
    const attempts = await c.get('ctx').state.webhooks.attempts(row.id, 100);
    const deliveries = attempts.map((a) => ({
      id: a.outbox_id,
      type: a.type,
      attempt: a.attempt,
      outcome: a.outcome,
      status: a.status,
      http_status: a.http_status,
      latency_ms: a.latency_ms,
      error: a.error,
      excerpt: a.excerpt,
      node: a.node,
      at: a.at,
    }));
    return c.json({ deliveries }, 200);
  });

  app.openapi(redeliverRoute, async (c) => {
    const ctx = c.get('ctx');
    const { id, delivery } = c.req.valid('param');
    const row = await found(c, id);
    if (!(await ctx.state.webhooks.redeliver(row.id, delivery, ctx.now()))) throw notFound('webhook', `no delivery ${delivery} of ${id}`);
    return c.json({ id: delivery, status: 'pending' as const }, 202);
  });
  return app;
}
