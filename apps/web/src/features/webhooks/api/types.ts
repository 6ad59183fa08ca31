// The wire types of webhook subscriptions and their delivery attempts, from the generated schema
// (GET /v1/openapi.json), and the event list the form offers, checked against it.
import type { components } from '../../../lib/api/schema';

export type Webhook = components['schemas']['Webhook'];
export type NewWebhook = components['schemas']['NewWebhook'];
export type WebhookBody = components['schemas']['WebhookBody'];
export type WebhookAttempt = components['schemas']['WebhookAttempt'];
export type WebhookEvent = Webhook['events'][number];
export type WebhookFormat = Webhook['format'];

type Exactly<List extends readonly string[], Union extends string> = [Union] extends [List[number]] ? List : never;

/** Every event a subscription may hear (docs/webhooks.md, "Events"), in the order a call lives them. */
export const EVENTS = [
  'approval.pending',
  'approval.approved',
  'approval.denied',
  'approval.expired',
  'approval.claimed',
  'decision.denied',
] as const satisfies readonly WebhookEvent[];
export const ALL_EVENTS: Exactly<typeof EVENTS, WebhookEvent> = EVENTS;
