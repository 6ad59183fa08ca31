// Filling the outbox (docs/webhooks.md, "The outbox"): each approval transition this process publishes (the gate
// holding a call, a member deciding, the claim; event-hub.ts's onPublish hears only this process's, so a transition
// is enqueued once, by the node that made it) becomes one row per subscription that hears it, written right after
// the transition commits; expiry has no request to publish it, so the delivery worker's sweep enqueues it (sweepExpired).
// Rows are unique by subscription and event key, so a sweep on two nodes writes each expiry once.
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../context.ts';
import { listedApprovers, membersById } from '../routes/approval-people.ts';
import type { ApprovalRow } from '../state/approvals/model.ts';
import { hears, type OutboxRow } from '../state/webhooks/model.ts';
import { payloadText } from './payload.ts';

const STATUSES = new Set(['pending', 'approved', 'denied', 'expired', 'claimed']);

/** The console's address the payloads link to (TOLLGATE_CONSOLE_URL), or null. */
export function consoleUrlOf(env: NodeJS.ProcessEnv = process.env): string | null {
  const base = env.TOLLGATE_CONSOLE_URL?.replace(/\/+$/, '');
  return base ? `${base}/#/approvals` : null;
}

/** Enqueues `approval.<status>` of request `id` for every subscription that hears it; answers the rows written. */
export async function enqueueApprovalEvent(ctx: AppContext, id: string, status: string, at: Date = ctx.now()): Promise<number> {
  if (!STATUSES.has(status)) return 0;
  const type = `approval.${status}`;
  const subscriptions = await ctx.state.webhooks.list();
  if (subscriptions.length === 0) return 0;
  const row = await ctx.state.findApproval(id);
  if (!row) return 0;
  const call = { agent: row.agent, tool: row.tool, policy: row.policy_document };
  const when = at.toISOString();
  // A subscription hears what happens after it is made, not an expiry the sweep finds from before it.
  const hearing = subscriptions.filter((s) => s.created_at <= when && hears(s, type, call));
  if (hearing.length === 0) return 0;
  const facts = {
    row,
    status,
    approvers: await approversOf(ctx, row),
    argumentsText: hearing.some((s) => s.include_arguments === 1) ? ((await ctx.state.findDecision(row.call_id))?.arguments ?? null) : null,
    consoleUrl: consoleUrlOf(),
  };
  const rows: OutboxRow[] = hearing.map((sub) => ({
    id: `msg_${randomUUID()}`,
    subscription_id: sub.id,
    event_key: `${row.id}:${status}`,
    type,
    body: payloadText(sub, type, when, facts),
    status: 'pending',
    attempts: 0,
    next_at: when,
    leased_until: null,
    leased_by: null,
    created_at: when,
  }));
  await ctx.state.webhooks.enqueue(rows);
  return rows.length;
}

async function approversOf(ctx: AppContext, row: ApprovalRow): Promise<{ id: string; name: string }[]> {
  const people = membersById(await ctx.state.members());
  return listedApprovers(row).map((id) => ({ id, name: people.get(id)?.name ?? id }));
}

/**
 * Enqueues every approval transition this process publishes from now on; answers a stop that waits for the
 * enqueues under way (a stopping server writes what it published). A failed enqueue is reported, never thrown:
 * it must not touch the request that made the transition.
 */
export function enqueueTransitions(ctx: AppContext, onError: (err: unknown) => void = reportEnqueueError): () => Promise<void> {
  const running = new Set<Promise<unknown>>();
  const stop = ctx.events.onPublish((event) => {
    if (event.type !== 'approval') return;
    const at = ctx.now();
    const p = enqueueApprovalEvent(ctx, event.id, event.status, at).catch(onError);
    running.add(p);
    void p.finally(() => running.delete(p));
  });
  return async () => {
    stop();
    await Promise.all([...running]);
  };
}

function reportEnqueueError(err: unknown): void {
  process.stderr.write(`tollgate: a webhook event was not enqueued: ${(err as Error).message ?? String(err)}\n`);
}

/** How far back the sweep looks for requests that expired undecided. */
export const EXPIRY_LOOKBACK_MS = 60 * 60 * 1000;

/**
 * Enqueues `approval.expired` for requests that expired undecided within the last hour (each once, on any node: the
 * outbox's uniqueness); `seen` keeps the requests this node has enqueued already, so a sweep a second does not write
 * them again (it forgets those past the hour).
 */
export async function sweepExpired(ctx: AppContext, now: Date = ctx.now(), seen: Map<string, string> = new Map()): Promise<number> {
  if ((await ctx.state.webhooks.list()).length === 0) return 0;
  const since = new Date(now.getTime() - EXPIRY_LOOKBACK_MS).toISOString();
  for (const [id, expiresAt] of seen) if (expiresAt < since) seen.delete(id);
  const page = await ctx.state.listApprovals('expired', now, 200);
  let written = 0;
  for (const row of page.rows) {
    if (row.expires_at < since || seen.has(row.id)) continue;
    written += await enqueueApprovalEvent(ctx, row.id, 'expired', new Date(row.expires_at));
    seen.set(row.id, row.expires_at);
  }
  return written;
}
