// Live events across nodes (docs/deploy.md, "Several nodes on PostgreSQL"): what one node publishes (an approval
// held, decided or claimed; a trial's counts) is sent with NOTIFY and every other node hands it to its own event
// streams. Document changes travel by the document store's own notices (context: onChange), so they are not sent
// twice. A notice lost while the listening connection was down is not replayed: the console reads the lists again
// when its stream reconnects (docs/console.md).
import { randomUUID } from 'node:crypto';
import { readJsonText } from '@tollgate/engine/source';
import { ChangeListener, schemaChannel, schemaChannelSql } from '@tollgate/store';
import type pg from 'pg';
import type { EventHub, ServerEvent } from '../event-hub.ts';

/** The channel's name in schema `public`; in another, one of that schema's own (schemaChannelSql). */
export const EVENTS_CHANNEL = 'tollgate_events';
const NOTIFY_SQL = `SELECT pg_notify(${schemaChannelSql('$1::text')}, $2)`;

/** NOTIFY's payload limit is 8000 bytes; an event is far smaller, and one that is not is not sent. */
const MAX_PAYLOAD = 7900;

/**
 * Relays the hub's events to the other nodes on the pool's database and delivers theirs; answers a closer.
 *
 * @example
 * const stop = await relayEvents(pool, ctx.events);
 */
export async function relayEvents(pool: pg.Pool, events: EventHub): Promise<() => Promise<void>> {
  const origin = randomUUID();
  const listener = new ChangeListener({
    channel: await schemaChannel(pool, EVENTS_CHANNEL),
    connect: () => pool.connect(),
    onNotice: (payload) => {
      const event = readNotice(payload, origin);
      if (event) events.deliver(event);
    },
    onReconnect: async () => {},
  });
  await listener.start();
  events.relayTo((event) => {
    if (event.type === 'document') return;
    const payload = JSON.stringify({ origin, event });
    if (payload.length > MAX_PAYLOAD) return;
    pool.query(NOTIFY_SQL, [EVENTS_CHANNEL, payload]).catch(() => {
      // The database is unreachable: the call that published this failed too, or is retried by its client.
    });
  });
  return () => listener.close();
}

/**
 * An event another node sent, checked member by member (a notice is text any client of the database could send);
 * undefined for this node's own, and for anything that is not an event.
 */
export function readNotice(payload: string, origin: string): ServerEvent | undefined {
  // Read by the one exact JSON reader: any client of the database can NOTIFY this channel.
  const read = readJsonText(payload);
  if (!read.ok || read.diagnostics.length > 0) return undefined;
  const notice: unknown = read.value;
  if (!isRecord(notice) || notice.origin === origin || !isRecord(notice.event)) return undefined;
  const e = notice.event;
  if (e.type === 'approval' && typeof e.id === 'string' && typeof e.status === 'string') {
    return { type: 'approval', id: e.id, status: e.status };
  }
  if (
    e.type === 'trial' &&
    typeof e.document === 'string' &&
    typeof e.running === 'boolean' &&
    [e.candidate, e.calls, e.sampled, e.agreed, e.differed].every((n) => Number.isSafeInteger(n))
  ) {
    return {
      type: 'trial',
      document: e.document,
      candidate: e.candidate as number,
      running: e.running,
      calls: e.calls as number,
      sampled: e.sampled as number,
      agreed: e.agreed as number,
      differed: e.differed as number,
    };
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
