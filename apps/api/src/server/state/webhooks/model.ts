// Webhook subscriptions and their durable outbox (docs/webhooks.md), the model the SQLite and PostgreSQL stores share
// (sqlite.ts, postgres.ts): the rows, the retry schedule, and each statement written once for either dialect's
// placeholder. An event is one outbox row per subscription, unique by (subscription, event key), so two nodes that
// enqueue the same transition (the expiry sweep runs on every node) write it once. A node delivers a row only while
// it holds its lease (leased_by, leased_until): a node that dies mid-delivery leaves a lease another takes once it
// lapses. Pure.

import type { TransitionRow } from '../approvals/model.ts';
import type { Placeholder, Statement } from '../statement.ts';
import { readStoredJson } from '../stored-json.ts';

export const WEBHOOK_EVENTS = [
  'approval.pending',
  'approval.approved',
  'approval.denied',
  'approval.expired',
  'approval.claimed',
  'decision.denied',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export type WebhookFormat = 'standard' | 'slack';

/** Which calls' events a subscription hears: each list, when given, must name the call's agent, tool, policy. */
export interface WebhookFilters {
  agents?: string[];
  tools?: string[];
  policies?: string[];
}

export interface SubscriptionRow {
  id: string;
  url: string;
  /** JSON: the event types. */
  events: string;
  /** JSON: WebhookFilters. */
  filters: string;
  include_arguments: number;
  format: WebhookFormat;
  /** The signing secret as stored: sealed (sealed-secret.ts), or plain `whsec_…` as an earlier version wrote it. */
  secret: string;
  created_at: string;
  created_by: string;
  removed_at: string | null;
}

export type OutboxStatus = 'pending' | 'delivered' | 'failed';

export interface OutboxRow {
  /** The message id (the `webhook-id` header), the same on every attempt; the delivery's id in the API. */
  id: string;
  subscription_id: string;
  /** `<approval id>:<event>`: what makes enqueuing a transition twice write it once. */
  event_key: string;
  type: string;
  /** The body as it is sent, JSON text (the payload is fixed when the event happens). */
  body: string;
  status: OutboxStatus;
  attempts: number;
  next_at: string;
  leased_until: string | null;
  leased_by: string | null;
  created_at: string;
}

export interface AttemptRow {
  outbox_id: string;
  subscription_id: string;
  attempt: number;
  node: string;
  outcome: 'delivered' | 'failed';
  http_status: number | null;
  latency_ms: number;
  error: string | null;
  excerpt: string | null;
  at: string;
}

/** An attempt as the deliveries route lists it, with its event's type. */
export interface AttemptView extends AttemptRow {
  type: string;
  /** The outbox row's status now: pending (a retry is due), delivered or failed (given up). */
  status: OutboxStatus;
}

/** The waits before each retry (docs/webhooks.md): after the last, the row is failed (about 43 minutes in all). */
export const RETRY_DELAYS_MS: readonly number[] = [5_000, 30_000, 120_000, 600_000, 1_800_000];

/** How long a claimed row is this node's alone; an attempt's timeout is well inside it. */
export const LEASE_MS = 30_000;

/**
 * When the row is tried next after `attempts` failed attempts, or null when it is given up (failed); `jitter` in
 * [0, 1) spreads retries of many rows by up to a fifth of the wait either way.
 */
export function nextAttemptAt(attempts: number, now: Date, jitter: number): string | null {
  const wait = RETRY_DELAYS_MS[attempts - 1];
  if (wait === undefined) return null;
  return new Date(now.getTime() + Math.round(wait * (0.8 + 0.4 * jitter))).toISOString();
}

/** The events a subscription hears, read as every stored JSON is: a list that does not read hears nothing. */
export function eventsOf(row: SubscriptionRow): string[] {
  const events = readStoredJson(row.events);
  return Array.isArray(events) ? events.filter((e): e is string => typeof e === 'string') : [];
}

/** A subscription's filters; ones that do not read filter out every call (fail closed: nothing is told). */
export function filtersOf(row: SubscriptionRow): WebhookFilters {
  const filters = readStoredJson(row.filters);
  if (filters !== null && typeof filters === 'object' && !Array.isArray(filters)) return filters as WebhookFilters;
  return { agents: [] };
}

/** Whether a subscription hears `event` of a call by `agent` of `tool` decided under `policies` (any of them). */
export function hears(row: SubscriptionRow, event: string, call: { agent: string; tool: string; policies: readonly string[] }): boolean {
  if (row.removed_at !== null || !eventsOf(row).includes(event)) return false;
  const f = filtersOf(row);
  if (f.agents && !f.agents.includes(call.agent)) return false;
  if (f.tools && !f.tools.includes(call.tool)) return false;
  if (f.policies && !call.policies.some((p) => f.policies?.includes(p))) return false;
  return true;
}

/** How a sealed secret's stored text begins (sealed-secret.ts): never how a plain `whsec_` secret does. */
export const SEALED_SECRET_PREFIX = 'sealed-v1.';

/** How a plain Standard Webhooks secret begins, as versions before sealing stored it. */
export const PLAIN_SECRET_PREFIX = 'whsec_';

export function isSealedSecret(stored: string): boolean {
  return stored.startsWith(SEALED_SECRET_PREFIX);
}

/** The stores write no secret in plain (docs/webhooks.md, "The secret at rest"): a plain one is a fault of the caller. */
export function requireSealedSecret(secret: string): void {
  if (!isSealedSecret(secret)) throw new Error('a webhook secret is written sealed (state/webhooks/sealed-secret.ts), never plain');
}

export const SUBSCRIPTION_COLUMNS = [
  'id',
  'url',
  'events',
  'filters',
  'include_arguments',
  'format',
  'secret',
  'created_at',
  'created_by',
  'removed_at',
] as const;

export const OUTBOX_COLUMNS = [
  'id',
  'subscription_id',
  'event_key',
  'type',
  'body',
  'status',
  'attempts',
  'next_at',
  'leased_until',
  'leased_by',
  'created_at',
] as const;

const ATTEMPT_COLUMNS = [
  'outbox_id',
  'subscription_id',
  'attempt',
  'node',
  'outcome',
  'http_status',
  'latency_ms',
  'error',
  'excerpt',
  'at',
] as const;

const marks = (n: number, mark: Placeholder, from = 1) => Array.from({ length: n }, (_, i) => mark(from + i)).join(', ');

export function insertSubscription(row: SubscriptionRow, mark: Placeholder): Statement {
  requireSealedSecret(row.secret);
  return {
    sql: `INSERT INTO webhook_subscriptions (${SUBSCRIPTION_COLUMNS.join(', ')}) VALUES (${marks(SUBSCRIPTION_COLUMNS.length, mark)})`,
    params: SUBSCRIPTION_COLUMNS.map((c) => row[c]),
  };
}

/** Gives a current subscription a new secret, sealed. */
export function updateSecret(id: string, secret: string, mark: Placeholder): Statement {
  requireSealedSecret(secret);
  return {
    sql: `UPDATE webhook_subscriptions SET secret = ${mark(1)} WHERE id = ${mark(2)} AND removed_at IS NULL`,
    params: [secret, id],
  };
}

/**
 * Seals a plain secret an earlier version stored (sealed-secret.ts, sealingOfSecrets), only while it is still that
 * plain text: of two nodes sealing at their starts, one write counts.
 */
export function sealStoredSecret(id: string, plain: string, sealed: string, mark: Placeholder): Statement {
  requireSealedSecret(sealed);
  return {
    sql: `UPDATE webhook_subscriptions SET secret = ${mark(1)} WHERE id = ${mark(2)} AND secret = ${mark(3)}`,
    params: [sealed, id, plain],
  };
}

/** Every subscription's stored secret, removed ones too: each is sealed at a start (sealed-secret.ts). */
export const STORED_SECRETS = 'SELECT id, secret FROM webhook_subscriptions ORDER BY id';

/** Writes the row unless the subscription has this event already (a transition enqueued twice, by two nodes). */
/** A denied call as the `decision.denied` fan-out reads it (webhooks/denies.ts), `seq` its place in write order. */
export interface DeniedRow {
  seq: number;
  call_id: string;
  agent: string;
  tool: string;
  rule: string | null;
  code: string | null;
  versions: string;
  arguments: string | null;
  created_at: string;
}

/** The cursor of the `decision.denied` fan-out in webhook_cursors. */
export const DENY_CURSOR = 'decision.denied';

/**
 * Denied calls written after `seq`, in write order: SQLite's rowid and PostgreSQL's `rowid` are given as each row is
 * inserted, so a decision written late (its batch retried) is placed late, never behind the cursor.
 */
export function deniesAfter(seq: number, limit: number, mark: Placeholder): Statement {
  return {
    sql: `SELECT rowid AS seq, call_id, agent, tool, rule, code, versions, arguments, created_at FROM decisions
          WHERE decision = 'deny' AND rowid > ${mark(1)} ORDER BY rowid LIMIT ${mark(2)}`,
    params: [seq, limit],
  };
}

/**
 * Where a deny cursor starts for denies decided from `at` on: just before the first such deny written, or past every
 * decision written when none is yet (what is decided later is written later, past it).
 */
export function denyCursorStart(at: string, mark: Placeholder): Statement {
  return {
    sql: `SELECT COALESCE((SELECT MIN(rowid) - 1 FROM decisions WHERE decision = 'deny' AND created_at >= ${mark(1)}),
                          (SELECT MAX(rowid) FROM decisions), 0) AS seq`,
    params: [at],
  };
}

/** Makes cursor `name` at `position` unless it exists; a second node's start changes nothing. */
export function startCursor(name: string, position: number, mark: Placeholder): Statement {
  return {
    sql: `INSERT INTO webhook_cursors (name, position) VALUES (${mark(1)}, ${mark(2)}) ON CONFLICT (name) DO NOTHING`,
    params: [name, position],
  };
}

/** Moves cursor `name` forward to `position` (never back: two nodes may advance it at once). */
export function advanceCursor(name: string, position: number, mark: Placeholder): Statement {
  return {
    sql: `UPDATE webhook_cursors SET position = ${mark(1)} WHERE name = ${mark(2)} AND position < ${mark(3)}`,
    params: [position, name, position],
  };
}

/** The oldest transitions waiting for the fan-out. */
export function transitionsQuery(limit: number, mark: Placeholder): Statement {
  return {
    sql: `SELECT event_key, approval_id, status, at FROM approval_transitions ORDER BY at, event_key LIMIT ${mark(1)}`,
    params: [limit],
  };
}

/** Deletes fanned-out transitions (their outbox rows written in the same transaction). */
export function deleteTransitions(keys: readonly string[], mark: Placeholder): Statement {
  return {
    sql: `DELETE FROM approval_transitions WHERE event_key IN (${keys.map((_, i) => mark(i + 1)).join(', ')})`,
    params: [...keys],
  };
}

export function insertOutbox(row: OutboxRow, mark: Placeholder): Statement {
  return {
    sql: `INSERT INTO webhook_outbox (${OUTBOX_COLUMNS.join(', ')}) VALUES (${marks(OUTBOX_COLUMNS.length, mark)})
          ON CONFLICT (subscription_id, event_key) DO NOTHING`,
    params: OUTBOX_COLUMNS.map((c) => row[c]),
  };
}

/**
 * Leases up to `limit` due rows to `node` until `until`: pending, due, and unleased or with a lapsed lease. On
 * PostgreSQL the inner select skips rows another node is leasing in this instant (`skipLocked`); SQLite's one
 * writer makes the conditional update enough.
 */
export function leaseDue(node: string, now: string, until: string, limit: number, mark: Placeholder, skipLocked: boolean): Statement {
  return {
    sql: `UPDATE webhook_outbox SET leased_until = ${mark(1)}, leased_by = ${mark(2)}
          WHERE id IN (SELECT id FROM webhook_outbox
                       WHERE status = 'pending' AND next_at <= ${mark(3)} AND (leased_until IS NULL OR leased_until <= ${mark(4)})
                       ORDER BY next_at, id LIMIT ${mark(5)}${skipLocked ? ' FOR UPDATE SKIP LOCKED' : ''})
          RETURNING ${OUTBOX_COLUMNS.join(', ')}`,
    params: [until, node, now, now, limit],
  };
}

/**
 * Ends an attempt: the row's new status, count and next time, its lease released; only while `node` still holds
 * it (a row whose lease another node took is not written twice).
 */
export function finishAttempt(
  attempt: AttemptRow,
  status: OutboxStatus,
  nextAt: string | null,
  mark: Placeholder,
): { update: Statement; insert: Statement } {
  return {
    update: {
      sql: `UPDATE webhook_outbox SET status = ${mark(1)}, attempts = ${mark(2)}, next_at = ${mark(3)}, leased_until = NULL, leased_by = NULL
            WHERE id = ${mark(4)} AND leased_by = ${mark(5)} AND status = 'pending'`,
      params: [status, attempt.attempt, nextAt ?? attempt.at, attempt.outbox_id, attempt.node],
    },
    insert: {
      sql: `INSERT INTO webhook_attempts (${ATTEMPT_COLUMNS.join(', ')}) VALUES (${marks(ATTEMPT_COLUMNS.length, mark)})`,
      params: ATTEMPT_COLUMNS.map((c) => attempt[c]),
    },
  };
}

/** The subscription's most recent attempts, newest first, with each event's type and its row's status. */
export function recentAttempts(subscriptionId: string, limit: number, mark: Placeholder): Statement {
  return {
    sql: `SELECT a.outbox_id, a.subscription_id, a.attempt, a.node, a.outcome, a.http_status, a.latency_ms, a.error, a.excerpt, a.at,
                 o.type, o.status
          FROM webhook_attempts a JOIN webhook_outbox o ON o.id = a.outbox_id
          WHERE a.subscription_id = ${mark(1)} ORDER BY a.at DESC, a.seq DESC LIMIT ${mark(2)}`,
    params: [subscriptionId, limit],
  };
}

/** Puts a delivery back to be sent now, whatever it came to, with a fresh retry schedule. */
export function redeliver(subscriptionId: string, id: string, now: string, mark: Placeholder): Statement {
  return {
    sql: `UPDATE webhook_outbox SET status = 'pending', attempts = 0, next_at = ${mark(1)}, leased_until = NULL, leased_by = NULL
          WHERE id = ${mark(2)} AND subscription_id = ${mark(3)}`,
    params: [now, id, subscriptionId],
  };
}

/** What the stores answer to the routes, the worker and the CLI (state-store.ts's `webhooks`). */
export interface WebhookStore {
  create(row: SubscriptionRow): Promise<void>;
  /** The current subscriptions (removed ones left out), oldest first. */
  list(): Promise<SubscriptionRow[]>;
  find(id: string): Promise<SubscriptionRow | undefined>;
  /** Removes a current subscription (its pending deliveries are failed); false when there is none. */
  remove(id: string, at: string): Promise<boolean>;
  rotateSecret(id: string, secret: string): Promise<boolean>;
  enqueue(rows: readonly OutboxRow[]): Promise<void>;
  /** Cursor `name`'s position, or undefined before it is started. */
  cursor(name: string): Promise<number | undefined>;
  /** Starts the deny cursor for denies decided from `at` on (unless it exists); answers its position. */
  startDenyCursor(at: string): Promise<number>;
  advanceCursor(name: string, position: number): Promise<void>;
  /** Denied calls written after `seq`, in write order, at most `limit`. */
  denies(seq: number, limit: number): Promise<DeniedRow[]>;
  /** The oldest approval transitions not yet fanned out (approvals/model.ts, transitionStatement), at most `limit`. */
  transitions(limit: number): Promise<TransitionRow[]>;
  /** Writes the outbox rows of transitions `keys` and deletes those transitions, in one transaction. */
  fanOut(rows: readonly OutboxRow[], keys: readonly string[]): Promise<void>;
  lease(node: string, now: Date, leaseMs: number, limit: number): Promise<OutboxRow[]>;
  /** Records an attempt and the row's next state; false (nothing written) when `node` no longer holds the lease. */
  finish(attempt: AttemptRow, status: OutboxStatus, nextAt: string | null): Promise<boolean>;
  attempts(subscriptionId: string, limit: number): Promise<AttemptView[]>;
  findDelivery(id: string): Promise<OutboxRow | undefined>;
  redeliver(subscriptionId: string, id: string, now: Date): Promise<boolean>;
}
