// Making and removing webhook subscriptions, the one way the API's routes (routes/webhooks.ts) and the operator's
// CLI (cli/commands/webhooks.ts) both take (docs/webhooks.md): the URL checked (outbound-url.ts), a fresh secret
// (Standard Webhooks' whsec_ and base64 of 32 random bytes) stored sealed with the member key secret
// (state/webhooks/sealed-secret.ts) and answered in plain this once, and each change chained in the record
// (docs/audit.md) naming the URL's origin only, since an incoming-webhook URL's path is itself a secret.
import { randomBytes, randomUUID } from 'node:crypto';
import type { StateStore } from '../state/state-store.ts';
import type { SubscriptionRow, WebhookEvent, WebhookFilters, WebhookFormat } from '../state/webhooks/model.ts';
import { sealWebhookSecret } from '../state/webhooks/sealed-secret.ts';
import { checkOutboundUrl, type OutboundPolicy } from './outbound-url.ts';

export interface SubscriptionInput {
  url: string;
  events: readonly WebhookEvent[];
  filters?: WebhookFilters | undefined;
  include_arguments?: boolean | undefined;
  format?: WebhookFormat | undefined;
}

/** A fresh Standard Webhooks secret. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** What a change puts in the record: never the secret, and of the URL only its origin. */
async function chainChange(state: StateStore, kind: string, row: SubscriptionRow, by: string, now: Date): Promise<void> {
  const at = now.toISOString();
  await state.chain(kind, at, row.id, { id: row.id, origin: new URL(row.url).origin, events: row.events, format: row.format, by, at });
}

/** Makes a subscription by `by`; answers it (its secret as stored: sealed) with its plain secret, or why its URL is refused. */
export async function subscribe(
  state: StateStore,
  input: SubscriptionInput,
  by: string,
  now: Date,
  policy: OutboundPolicy,
): Promise<{ ok: true; row: SubscriptionRow; secret: string } | { ok: false; reason: string }> {
  const check = await checkOutboundUrl(input.url, policy);
  if (!check.ok) return check;
  const secret = newWebhookSecret();
  const id = `wh_${randomUUID().replaceAll('-', '').slice(0, 20)}`;
  const row: SubscriptionRow = {
    id,
    url: check.url.href,
    events: JSON.stringify([...new Set(input.events)]),
    filters: JSON.stringify(input.filters ?? {}),
    include_arguments: input.include_arguments === true ? 1 : 0,
    format: input.format ?? 'standard',
    secret: sealWebhookSecret(secret, state.custodial, id),
    created_at: now.toISOString(),
    created_by: by,
    removed_at: null,
  };
  await state.webhooks.create(row);
  await chainChange(state, 'webhook.created', row, by, now);
  return { ok: true, row, secret };
}

/** Removes a current subscription (its pending deliveries given up); undefined when there is none. */
export async function unsubscribe(state: StateStore, id: string, by: string, now: Date): Promise<SubscriptionRow | undefined> {
  const row = await state.webhooks.find(id);
  if (!row || !(await state.webhooks.remove(id, now.toISOString()))) return undefined;
  await chainChange(state, 'webhook.removed', row, by, now);
  return row;
}

/** A new secret for a current subscription, stored sealed and answered in plain, shown once; undefined when there is none. */
export async function rotateWebhookSecret(
  state: StateStore,
  id: string,
  by: string,
  now: Date,
): Promise<{ row: SubscriptionRow; secret: string } | undefined> {
  const row = await state.webhooks.find(id);
  const secret = newWebhookSecret();
  const sealed = sealWebhookSecret(secret, state.custodial, id);
  if (!row || !(await state.webhooks.rotateSecret(id, sealed))) return undefined;
  await chainChange(state, 'webhook.secret_rotated', row, by, now);
  return { row: { ...row, secret: sealed }, secret };
}
