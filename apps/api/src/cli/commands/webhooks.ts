// tollgate webhooks add|list|remove|rotate-secret: webhook subscriptions made by the operator on the data folder's tollgate.db or
// the PostgreSQL database nodes share, as `tollgate keys` works (docs/webhooks.md). The secret is printed once, when
// the subscription is made or its secret rotated, and stored sealed with the member key secret the command is given (stateOf, as for
// keys); the URL is checked as the API checks it (TOLLGATE_WEBHOOKS_ALLOW_HTTP, _ALLOW_PRIVATE).
import {
  filtersOf as storedFilters,
  eventsOf as subscribedEvents,
  WEBHOOK_EVENTS,
  type WebhookEvent,
  type WebhookFilters,
} from '../../server/state/webhooks/model.ts';
import { outboundPolicyOf } from '../../server/webhooks/outbound-url.ts';
import { rotateWebhookSecret, subscribe, unsubscribe } from '../../server/webhooks/subscriptions.ts';
import { CliError, type CliIo, EXIT_INVALID, EXIT_OK } from '../io.ts';
import { one, type ParsedOptions } from '../options.ts';
import { stateOf } from './keys.ts';

const OPERATOR = 'operator';

function eventsOf(options: ParsedOptions): WebhookEvent[] {
  const events = (options.event ?? []) as string[];
  if (events.length === 0) throw new CliError('USAGE', `give at least one --event (${WEBHOOK_EVENTS.join(', ')})`);
  for (const e of events) {
    if (!(WEBHOOK_EVENTS as readonly string[]).includes(e))
      throw new CliError('USAGE', `--event is one of ${WEBHOOK_EVENTS.join(', ')}, not ${e}`);
  }
  return events as WebhookEvent[];
}

/** The filters --for-agent, --for-tool and --for-policy give, as the API takes them (each name 1-200 characters, 100 a list). */
function filtersOf(options: ParsedOptions): WebhookFilters {
  const filters: WebhookFilters = {};
  for (const [flag, key] of [
    ['for-agent', 'agents'],
    ['for-tool', 'tools'],
    ['for-policy', 'policies'],
  ] as const) {
    const names = [...new Set((options[flag] ?? []) as string[])];
    if (names.length === 0) continue;
    if (names.length > 100) throw new CliError('USAGE', `--${flag} is given at most 100 times`);
    for (const n of names) if (n.length < 1 || n.length > 200) throw new CliError('USAGE', `--${flag} is 1 to 200 characters`);
    filters[key] = names;
  }
  return filters;
}

export async function webhooksAdd(rest: string[], options: ParsedOptions, io: CliIo): Promise<number> {
  const url = one(rest, 'URL');
  const events = eventsOf(options);
  const format = options.format ?? 'standard';
  if (format !== 'standard' && format !== 'slack') throw new CliError('USAGE', `--format is standard or slack, not ${format}`);
  const { state, close } = await stateOf(options, 'webhooks add', true);
  try {
    const made = await subscribe(
      state,
      { url, events, format, include_arguments: options['include-arguments'] === true, filters: filtersOf(options) },
      OPERATOR,
      new Date(),
      outboundPolicyOf(),
    );
    if (!made.ok) {
      throw new CliError(
        { code: 'WEBHOOK_URL_REFUSED' },
        `tollgate webhooks add: WEBHOOK_URL_REFUSED: the URL is refused: ${made.reason}`,
        EXIT_INVALID,
      );
    }
    const { row, secret } = made;
    const filters = filtersOf(options);
    if (options.json) io.stdout.write(`${JSON.stringify({ id: row.id, url: row.url, events, format, filters, secret }, null, 2)}\n`);
    else io.stdout.write(`${row.id}  ${row.url}  ${events.join(',')}\nsecret (shown once): ${secret}\n`);
    return EXIT_OK;
  } finally {
    await close();
  }
}

export async function webhooksList(options: ParsedOptions, io: CliIo): Promise<number> {
  const { state, close } = await stateOf(options, 'webhooks list', false);
  try {
    const rows = (await state.webhooks.list()).map((r) => ({
      id: r.id,
      url: r.url,
      events: subscribedEvents(r),
      format: r.format,
      include_arguments: r.include_arguments === 1,
      filters: storedFilters(r),
      created_at: r.created_at,
      created_by: r.created_by,
    }));
    if (options.json) io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    else for (const r of rows) io.stdout.write(`${r.id}  ${r.format.padEnd(8)} ${r.url}  ${r.events.join(',')}\n`);
    return EXIT_OK;
  } finally {
    await close();
  }
}

export async function webhooksRemove(rest: string[], options: ParsedOptions, io: CliIo): Promise<number> {
  const id = one(rest, 'WEBHOOK_ID');
  const { state, close } = await stateOf(options, 'webhooks remove', false);
  try {
    const row = await unsubscribe(state, id, OPERATOR, new Date());
    if (!row) throw new CliError({ code: 'NOT_FOUND' }, `tollgate webhooks remove: NOT_FOUND: no webhook ${id}`, EXIT_INVALID);
    io.stdout.write(options.json ? `${JSON.stringify({ id: row.id, removed: true })}\n` : `removed ${row.id}\n`);
    return EXIT_OK;
  } finally {
    await close();
  }
}

/**
 * A new signing secret for a subscription, printed once and stored sealed, as POST /v1/webhooks/{id}/rotate-secret
 * makes it: deliveries from then on are signed with it (docs/webhooks.md).
 */
export async function webhooksRotateSecret(rest: string[], options: ParsedOptions, io: CliIo): Promise<number> {
  const id = one(rest, 'WEBHOOK_ID');
  const { state, close } = await stateOf(options, 'webhooks rotate-secret', true);
  try {
    const rotated = await rotateWebhookSecret(state, id, OPERATOR, new Date());
    if (!rotated) throw new CliError({ code: 'NOT_FOUND' }, `tollgate webhooks rotate-secret: NOT_FOUND: no webhook ${id}`, EXIT_INVALID);
    if (options.json) io.stdout.write(`${JSON.stringify({ id: rotated.row.id, secret: rotated.secret }, null, 2)}\n`);
    else io.stdout.write(`${rotated.row.id}  ${rotated.row.url}\nsecret (shown once): ${rotated.secret}\n`);
    return EXIT_OK;
  } finally {
    await close();
  }
}
