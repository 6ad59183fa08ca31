// Pure helpers of the Webhooks section: what the new-subscription form sends, how a subscription's filters and an
// attempt's time read, and the split of a signing secret off an answer, before anything keeps the answer.
import { EVENTS, type NewWebhook, type Webhook, type WebhookBody, type WebhookEvent, type WebhookFormat } from './api/types.ts';

/** A signing secret just made (a new subscription) or rotated, shown once, with the subscription as listed. */
export interface RevealedSecret {
  secret: string;
  info: Webhook;
  why: 'new' | 'rotated';
}

/** Splits the secret off a subscription's answer. Example: `withoutWebhookSecret(made).info` has no `secret`. */
export function withoutWebhookSecret(made: NewWebhook): { secret: string; info: Webhook } {
  const { secret, ...info } = made;
  return { secret, info };
}

export interface NewWebhookForm {
  url: string;
  events: readonly WebhookEvent[];
  format: WebhookFormat;
  includeArguments: boolean;
  /** The filters as typed: names separated by commas or spaces; an empty field lets any through. */
  agents?: string;
  tools?: string;
  policies?: string;
}

export const EMPTY_WEBHOOK_FORM: NewWebhookForm = {
  url: '',
  events: ['approval.pending'],
  format: 'standard',
  includeArguments: false,
  agents: '',
  tools: '',
  policies: '',
};

/** The filter lists the server takes at most (POST /v1/webhooks: 100 names of at most 200 characters each). */
const MAX_NAMES = 100;
const MAX_NAME = 200;

/** A filter field's names, in the order typed, each once. Example: `namesOf(' a, b  a ')` is `['a', 'b']`. */
export function namesOf(text: string | undefined): string[] {
  return [...new Set((text ?? '').split(/[\s,]+/).filter((name) => name !== ''))];
}

/**
 * The body POST /v1/webhooks is sent, or what is missing. Only what the form can judge alone is checked here:
 * whether the URL may be sent to is the server's to say (WEBHOOK_URL_REFUSED).
 *
 * @example
 * newWebhookBody({ url: ' https://hooks.example.com/t ', events: ['approval.pending'], format: 'slack', includeArguments: false })
 * // { body: { url: 'https://hooks.example.com/t', events: ['approval.pending'], format: 'slack', include_arguments: false } }
 */
export function newWebhookBody(form: NewWebhookForm): { body: WebhookBody } | { problem: string } {
  const url = form.url.trim();
  if (url === '') return { problem: 'The URL is needed.' };
  if (form.events.length === 0) return { problem: 'Tick at least one event.' };
  const events = EVENTS.filter((event) => form.events.includes(event));
  const filters: NonNullable<WebhookBody['filters']> = {};
  for (const name of ['agents', 'tools', 'policies'] as const) {
    const names = namesOf(form[name]);
    if (names.length === 0) continue;
    if (names.length > MAX_NAMES) return { problem: `Name at most ${MAX_NAMES} ${name}.` };
    const long = names.find((n) => n.length > MAX_NAME);
    if (long !== undefined) return { problem: `${long.slice(0, 20)}… is longer than ${MAX_NAME} characters.` };
    filters[name] = names;
  }
  const body: WebhookBody = { url, events, format: form.format, include_arguments: form.includeArguments };
  if (Object.keys(filters).length > 0) body.filters = filters;
  return { body };
}

/** A subscription's filters in words. Example: `filterWords({ agents: ['support-bot'] })` is `'agents: support-bot'`. */
export function filterWords(filters: Webhook['filters']): string {
  const parts = (['agents', 'tools', 'policies'] as const)
    .filter((name) => filters[name] !== undefined)
    .map((name) => `${name}: ${(filters[name] ?? []).join(', ')}`);
  return parts.length === 0 ? 'none' : parts.join('; ');
}
