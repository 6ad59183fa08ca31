// Filling the outbox (docs/webhooks.md, "The outbox"): each approval transition (the gate holding a call, a member
// deciding, the claim) is written in the transaction that makes it (state/approvals/model.ts, transitionStatement),
// and the fan-out turns it into one row per subscription that hears it, deleting it in the same transaction: a
// transition that committed is heard even when the database goes away right after, or the node dies. The node that
// made it fans out at once; every delivery worker's tick fans out what is left. Expiry has no step to write it, so the
// worker's sweep enqueues it (sweepExpired). Rows are unique by subscription and event key, so two nodes fanning out
// or sweeping the same transition write it once.
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../context.ts';
import { listedApprovers, membersById } from '../routes/approval-people.ts';
import type { ApprovalRow } from '../state/approvals/model.ts';
import { hears, type OutboxRow, type SubscriptionRow } from '../state/webhooks/model.ts';
import { payloadText } from './payload.ts';

const STATUSES = new Set(['pending', 'approved', 'denied', 'expired', 'claimed']);

/** The console's address the payloads link to (TOLLGATE_CONSOLE_URL), or null. */
export function consoleUrlOf(env: NodeJS.ProcessEnv = process.env): string | null {
  const base = env.TOLLGATE_CONSOLE_URL?.replace(/\/+$/, '');
  return base ? `${base}/#/approvals` : null;
}

/**
 * The outbox rows of `approval.<status>` of request `id`, one for every subscription of `subscriptions` that hears it
 * (none for a status no event names).
 */
async function outboxRowsOf(
  ctx: AppContext,
  subscriptions: readonly SubscriptionRow[],
  id: string,
  status: string,
  at: Date,
): Promise<OutboxRow[]> {
  if (!STATUSES.has(status) || subscriptions.length === 0) return [];
  const type = `approval.${status}`;
  const row = await ctx.state.findApproval(id);
  if (!row) return [];
  const call = { agent: row.agent, tool: row.tool, policies: [row.policy_document] };
  const when = at.toISOString();
  // A subscription hears what happens after it is made, not an expiry the sweep finds from before it.
  const hearing = subscriptions.filter((s) => s.created_at <= when && hears(s, type, call));
  if (hearing.length === 0) return [];
  const facts = {
    row,
    status,
    approvers: await approversOf(ctx, row),
    argumentsText: hearing.some((s) => s.include_arguments === 1) ? ((await ctx.state.findDecision(row.call_id))?.arguments ?? null) : null,
    consoleUrl: consoleUrlOf(),
  };
  return hearing.map((sub) => ({
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
}

/** How many transitions one fan-out transaction takes. */
const FAN_OUT_PAGE = 100;

/**
 * Turns the approval transitions written with their steps (state/approvals/model.ts, transitionStatement) into outbox
 * rows, a page at a time, each page's rows written and its transitions deleted in one transaction; answers the rows
 * written. Two nodes fanning out the same page write each row once (the outbox's uniqueness).
 */
export async function fanOutTransitions(ctx: AppContext, known?: readonly SubscriptionRow[]): Promise<number> {
  let written = 0;
  for (;;) {
    const page = await ctx.state.webhooks.transitions(FAN_OUT_PAGE);
    if (page.length === 0) return written;
    const subscriptions = known ?? (await ctx.state.webhooks.list());
    const rows: OutboxRow[] = [];
    for (const t of page) rows.push(...(await outboxRowsOf(ctx, subscriptions, t.approval_id, t.status, new Date(t.at))));
    await ctx.state.webhooks.fanOut(
      rows,
      page.map((t) => t.event_key),
    );
    written += rows.length;
    if (page.length < FAN_OUT_PAGE) return written;
  }
}

async function approversOf(ctx: AppContext, row: ApprovalRow): Promise<{ id: string; name: string }[]> {
  const people = membersById(await ctx.state.members());
  return listedApprovers(row).map((id) => ({ id, name: people.get(id)?.name ?? id }));
}

/**
 * Fans out at once after each approval transition this process publishes (the delivery worker's tick does too, so a
 * fan-out that fails here, a database away, is only late: the transitions wait in their table). Runs one fan-out
 * at a time, and one more if transitions were published meanwhile; answers a stop that waits for the one under way.
 */
export function fanOutOnPublish(ctx: AppContext): () => Promise<void> {
  let running: Promise<void> | undefined;
  let again = false;
  const run = (): void => {
    if (running) {
      again = true;
      return;
    }
    again = false;
    running = fanOutTransitions(ctx)
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        running = undefined;
        if (again) run();
      });
  };
  const stop = ctx.events.onPublish((event) => {
    if (event.type === 'approval') run();
  });
  return async () => {
    stop();
    again = false;
    while (running) await running;
  };
}

/** How far back the sweep looks for requests that expired undecided. */
export const EXPIRY_LOOKBACK_MS = 60 * 60 * 1000;

/**
 * Enqueues `approval.expired` for requests that expired undecided within the last hour (each once, on any node: the
 * outbox's uniqueness); `seen` keeps the requests this node has enqueued already, so a sweep a second does not write
 * them again (it forgets those past the hour).
 */
export async function sweepExpired(
  ctx: AppContext,
  now: Date = ctx.now(),
  seen: Map<string, string> = new Map(),
  known?: readonly SubscriptionRow[],
): Promise<number> {
  const subscriptions = known ?? (await ctx.state.webhooks.list());
  if (subscriptions.length === 0) return 0;
  const since = new Date(now.getTime() - EXPIRY_LOOKBACK_MS).toISOString();
  for (const [id, expiresAt] of seen) if (expiresAt < since) seen.delete(id);
  const page = await ctx.state.listApprovals('expired', now, 200);
  let written = 0;
  for (const row of page.rows) {
    if (row.expires_at < since || seen.has(row.id)) continue;
    const rows = await outboxRowsOf(ctx, subscriptions, row.id, 'expired', new Date(row.expires_at));
    if (rows.length > 0) await ctx.state.webhooks.enqueue(rows);
    written += rows.length;
    seen.set(row.id, row.expires_at);
  }
  return written;
}
