// Telling every deny (docs/webhooks.md, "Every deny"): a subscription to `decision.denied` hears each call the gate
// denied. The denied calls are read from the decisions table itself, which the decision log writes with its record
// entries in one transaction, so nothing rides on the gate's path: the delivery worker's tick reads the denies
// written past a cursor (state/webhooks/model.ts, deniesAfter; write order, so a decision written late is read
// late, never skipped) and enqueues one outbox row per subscription that hears each. The cursor stays LAG_MS behind
// the newest deny it read, so a transaction still open when a later one committed is read at the next tick; the
// outbox's uniqueness and `seen` keep a deny read twice from being enqueued twice.
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../context.ts';
import { readStoredJson } from '../state/stored-json.ts';
import { DENY_CURSOR, type DeniedRow, eventsOf, hears, type OutboxRow, type SubscriptionRow } from '../state/webhooks/model.ts';
import { denialPayloadText } from './payload.ts';

/** How far behind the newest deny read the cursor stays (longer than any write's transaction may stay open). */
export const LAG_MS = 30_000;
/** How many denies one read takes. */
const PAGE = 500;

/** The console's decisions page the payloads link to (TOLLGATE_CONSOLE_URL), or null. */
function decisionsUrlOf(env: NodeJS.ProcessEnv = process.env): string | null {
  const base = env.TOLLGATE_CONSOLE_URL?.replace(/\/+$/, '');
  return base ? `${base}/#/decisions` : null;
}

/** The policy documents a denied call was decided under (the paths its recorded versions name). */
function documentsOf(row: DeniedRow): string[] {
  const versions = readStoredJson(row.versions);
  return versions !== null && typeof versions === 'object' && !Array.isArray(versions) ? Object.keys(versions) : [];
}

function outboxRowsOf(subscriptions: readonly SubscriptionRow[], row: DeniedRow): OutboxRow[] {
  const call = { agent: row.agent, tool: row.tool, policies: documentsOf(row) };
  // A subscription hears the denies decided after it was made.
  const hearing = subscriptions.filter((s) => s.created_at <= row.created_at && hears(s, 'decision.denied', call));
  const facts = { row, consoleUrl: decisionsUrlOf() };
  return hearing.map((sub) => ({
    id: `msg_${randomUUID()}`,
    subscription_id: sub.id,
    event_key: `${row.call_id}:denied`,
    type: 'decision.denied',
    body: denialPayloadText(sub, facts),
    status: 'pending',
    attempts: 0,
    next_at: row.created_at,
    leased_until: null,
    leased_by: null,
    created_at: row.created_at,
  }));
}

/**
 * Enqueues `decision.denied` for the denies written since the last fan-out, when a subscription hears them; answers
 * the rows written. `seen` holds the denies this node enqueued that the cursor has not passed yet (their positions).
 */
export async function fanOutDenies(
  ctx: AppContext,
  now: Date = ctx.now(),
  seen: Map<string, number> = new Map(),
  known?: readonly SubscriptionRow[],
): Promise<number> {
  const subscriptions = (known ?? (await ctx.state.webhooks.list())).filter((s) => eventsOf(s).includes('decision.denied'));
  if (subscriptions.length === 0) return 0;
  const store = ctx.state.webhooks;
  // The cursor starts at the first deny written that was decided up to LAG_MS before the earliest of these
  // subscriptions was made (a write still open then is read too; none is told of a deny from before it).
  const earliest = new Date(Date.parse(subscriptions.map((s) => s.created_at).sort()[0] as string) - LAG_MS).toISOString();
  let position = (await store.cursor(DENY_CURSOR)) ?? (await store.startDenyCursor(earliest));
  const settled = new Date(now.getTime() - LAG_MS).toISOString();
  let written = 0;
  let readFrom = position;
  // Whether every deny read so far is settled, so the cursor may pass them all.
  let passing = true;
  for (;;) {
    const page = await store.denies(readFrom, PAGE);
    const rows: OutboxRow[] = [];
    for (const d of page) {
      if (!seen.has(d.call_id)) {
        rows.push(...outboxRowsOf(subscriptions, d));
        seen.set(d.call_id, d.seq);
      }
      // The cursor passes denies in write order up to the first one with a write that may still be open before it.
      if (passing && d.created_at <= settled) position = d.seq;
      else passing = false;
    }
    if (rows.length > 0) await store.enqueue(rows);
    written += rows.length;
    readFrom = page.at(-1)?.seq ?? readFrom;
    if (page.length < PAGE) break;
  }
  await store.advanceCursor(DENY_CURSOR, position);
  for (const [id, seq] of seen) if (seq <= position) seen.delete(id);
  return written;
}
