// Webhook subscriptions and their outbox on PostgreSQL (model.ts says what each statement does): several nodes
// lease due rows with FOR UPDATE SKIP LOCKED, so each row is one node's at a time, and each attempt is written with
// the row's next state in one transaction.
import { inTransaction } from '@tollgate/store';
import type pg from 'pg';
import type { TransitionRow } from '../approvals/model.ts';
import type { CustodialKeys } from '../members/custodial-keys.ts';
import { changesOf, rowsOf } from '../postgres-query.ts';
import { POSTGRES_MARK } from '../statement.ts';
import {
  type AttemptRow,
  type AttemptView,
  advanceCursor,
  DENY_CURSOR,
  type DeniedRow,
  deleteTransitions,
  deniesAfter,
  denyCursorStart,
  finishAttempt,
  insertOutbox,
  insertSubscription,
  leaseDue,
  type OutboxRow,
  type OutboxStatus,
  recentAttempts,
  redeliver,
  STORED_SECRETS,
  type SubscriptionRow,
  sealStoredSecret,
  startCursor,
  transitionsQuery,
  updateSecret,
  type WebhookStore,
} from './model.ts';
import { sealingOfSecrets } from './sealed-secret.ts';

export class PostgresWebhooks implements WebhookStore {
  constructor(private readonly pool: pg.Pool) {}

  async create(row: SubscriptionRow): Promise<void> {
    const s = insertSubscription(row, POSTGRES_MARK);
    await rowsOf(this.pool, s.sql, s.params);
  }

  list(): Promise<SubscriptionRow[]> {
    return rowsOf<SubscriptionRow>(this.pool, 'SELECT * FROM webhook_subscriptions WHERE removed_at IS NULL ORDER BY created_at, id');
  }

  async find(id: string): Promise<SubscriptionRow | undefined> {
    const [row] = await rowsOf<SubscriptionRow>(this.pool, 'SELECT * FROM webhook_subscriptions WHERE id = $1 AND removed_at IS NULL', [
      id,
    ]);
    return row;
  }

  remove(id: string, at: string): Promise<boolean> {
    return inTransaction(this.pool, async (client) => {
      const changed = await changesOf(client, 'UPDATE webhook_subscriptions SET removed_at = $1 WHERE id = $2 AND removed_at IS NULL', [
        at,
        id,
      ]);
      if (changed === 0) return false;
      await changesOf(client, "UPDATE webhook_outbox SET status = 'failed' WHERE subscription_id = $1 AND status = 'pending'", [id]);
      return true;
    });
  }

  async rotateSecret(id: string, secret: string): Promise<boolean> {
    const s = updateSecret(id, secret, POSTGRES_MARK);
    return (await changesOf(this.pool, s.sql, s.params)) > 0;
  }

  /** Seals plain secrets, as sqlite.ts's sealPlainSecrets does, in one transaction (a node racing it seals alike). */
  async sealPlainSecrets(keys: CustodialKeys): Promise<void> {
    const writes = sealingOfSecrets(await rowsOf<{ id: string; secret: string }>(this.pool, STORED_SECRETS), keys);
    if (writes.length === 0) return;
    await inTransaction(this.pool, async (client) => {
      for (const w of writes) {
        const s = sealStoredSecret(w.id, w.plain, w.sealed, POSTGRES_MARK);
        await changesOf(client, s.sql, s.params);
      }
    });
  }

  enqueue(rows: readonly OutboxRow[]): Promise<void> {
    return this.fanOut(rows, []);
  }

  async cursor(name: string): Promise<number | undefined> {
    const [row] = await rowsOf<{ position: string | number }>(this.pool, 'SELECT position FROM webhook_cursors WHERE name = $1', [name]);
    return row === undefined ? undefined : Number(row.position);
  }

  startDenyCursor(at: string): Promise<number> {
    return inTransaction(this.pool, async (client) => {
      const last = denyCursorStart(at, POSTGRES_MARK);
      const [found] = await rowsOf<{ seq: string | number }>(client, last.sql, last.params);
      const start = startCursor(DENY_CURSOR, Number(found?.seq ?? 0), POSTGRES_MARK);
      await changesOf(client, start.sql, start.params);
      const [row] = await rowsOf<{ position: string | number }>(client, 'SELECT position FROM webhook_cursors WHERE name = $1', [
        DENY_CURSOR,
      ]);
      return Number(row?.position ?? 0);
    });
  }

  async advanceCursor(name: string, position: number): Promise<void> {
    const s = advanceCursor(name, position, POSTGRES_MARK);
    await changesOf(this.pool, s.sql, s.params);
  }

  async denies(seq: number, limit: number): Promise<DeniedRow[]> {
    const s = deniesAfter(seq, limit, POSTGRES_MARK);
    const rows = await rowsOf<DeniedRow & { seq: string | number }>(this.pool, s.sql, s.params);
    // BIGSERIAL reads as text; positions stay well inside a double's exact integers.
    return rows.map((r) => ({ ...r, seq: Number(r.seq) }));
  }

  transitions(limit: number): Promise<TransitionRow[]> {
    const s = transitionsQuery(limit, POSTGRES_MARK);
    return rowsOf<TransitionRow>(this.pool, s.sql, s.params);
  }

  async fanOut(rows: readonly OutboxRow[], keys: readonly string[]): Promise<void> {
    if (rows.length === 0 && keys.length === 0) return;
    await inTransaction(this.pool, async (client) => {
      for (const row of rows) {
        const s = insertOutbox(row, POSTGRES_MARK);
        await changesOf(client, s.sql, s.params);
      }
      if (keys.length === 0) return;
      const d = deleteTransitions(keys, POSTGRES_MARK);
      await changesOf(client, d.sql, d.params);
    });
  }

  lease(node: string, now: Date, leaseMs: number, limit: number): Promise<OutboxRow[]> {
    const s = leaseDue(node, now.toISOString(), new Date(now.getTime() + leaseMs).toISOString(), limit, POSTGRES_MARK, true);
    return rowsOf<OutboxRow>(this.pool, s.sql, s.params);
  }

  finish(attempt: AttemptRow, status: OutboxStatus, nextAt: string | null): Promise<boolean> {
    const { update, insert } = finishAttempt(attempt, status, nextAt, POSTGRES_MARK);
    return inTransaction(this.pool, async (client) => {
      if ((await changesOf(client, update.sql, update.params)) === 0) return false;
      await changesOf(client, insert.sql, insert.params);
      return true;
    });
  }

  attempts(subscriptionId: string, limit: number): Promise<AttemptView[]> {
    const s = recentAttempts(subscriptionId, limit, POSTGRES_MARK);
    return rowsOf<AttemptView>(this.pool, s.sql, s.params);
  }

  async findDelivery(id: string): Promise<OutboxRow | undefined> {
    const [row] = await rowsOf<OutboxRow>(this.pool, 'SELECT * FROM webhook_outbox WHERE id = $1', [id]);
    return row;
  }

  async redeliver(subscriptionId: string, id: string, now: Date): Promise<boolean> {
    const s = redeliver(subscriptionId, id, now.toISOString(), POSTGRES_MARK);
    return (await changesOf(this.pool, s.sql, s.params)) > 0;
  }
}
