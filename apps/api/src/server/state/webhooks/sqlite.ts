// Webhook subscriptions and their outbox in SQLite (model.ts says what each statement does): the one writer of a
// SQLite database makes the model's conditional updates enough for the lease, and each attempt is written with the
// row's next state in one transaction.
import type { TransitionRow } from '../approvals/model.ts';
import type { Db } from '../db.ts';
import type { CustodialKeys } from '../members/custodial-keys.ts';
import { SQLITE_MARK } from '../statement.ts';
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

export class SqliteWebhooks implements WebhookStore {
  constructor(private readonly db: Db) {}

  async create(row: SubscriptionRow): Promise<void> {
    const s = insertSubscription(row, SQLITE_MARK);
    this.db.prepare(s.sql).run(...s.params);
  }

  async list(): Promise<SubscriptionRow[]> {
    return this.db
      .prepare('SELECT * FROM webhook_subscriptions WHERE removed_at IS NULL ORDER BY created_at, id')
      .all() as SubscriptionRow[];
  }

  async find(id: string): Promise<SubscriptionRow | undefined> {
    return this.db.prepare('SELECT * FROM webhook_subscriptions WHERE id = ? AND removed_at IS NULL').get(id) as
      | SubscriptionRow
      | undefined;
  }

  async remove(id: string, at: string): Promise<boolean> {
    return this.db.transaction(() => {
      const changed = this.db
        .prepare('UPDATE webhook_subscriptions SET removed_at = ? WHERE id = ? AND removed_at IS NULL')
        .run(at, id).changes;
      if (changed === 0) return false;
      this.db.prepare("UPDATE webhook_outbox SET status = 'failed' WHERE subscription_id = ? AND status = 'pending'").run(id);
      return true;
    })();
  }

  async rotateSecret(id: string, secret: string): Promise<boolean> {
    const s = updateSecret(id, secret, SQLITE_MARK);
    return this.db.prepare(s.sql).run(...s.params).changes > 0;
  }

  /**
   * Seals every secret an earlier version stored in plain, in one transaction; throws SecretMismatchError, writing
   * nothing, when `keys` does not open the secrets sealed already.
   */
  sealPlainSecrets(keys: CustodialKeys): void {
    const writes = sealingOfSecrets(this.db.prepare(STORED_SECRETS).all() as { id: string; secret: string }[], keys);
    if (writes.length === 0) return;
    this.db.transaction(() => {
      for (const w of writes) {
        const s = sealStoredSecret(w.id, w.plain, w.sealed, SQLITE_MARK);
        this.db.prepare(s.sql).run(...s.params);
      }
    })();
  }

  enqueue(rows: readonly OutboxRow[]): Promise<void> {
    return this.fanOut(rows, []);
  }

  async cursor(name: string): Promise<number | undefined> {
    const row = this.db.prepare('SELECT position FROM webhook_cursors WHERE name = ?').get(name) as { position: number } | undefined;
    return row?.position;
  }

  async startDenyCursor(at: string): Promise<number> {
    return this.db.transaction(() => {
      const last = denyCursorStart(at, SQLITE_MARK);
      const { seq } = this.db.prepare(last.sql).get(...last.params) as { seq: number };
      const start = startCursor(DENY_CURSOR, seq, SQLITE_MARK);
      this.db.prepare(start.sql).run(...start.params);
      return (this.db.prepare('SELECT position FROM webhook_cursors WHERE name = ?').get(DENY_CURSOR) as { position: number }).position;
    })();
  }

  async advanceCursor(name: string, position: number): Promise<void> {
    const s = advanceCursor(name, position, SQLITE_MARK);
    this.db.prepare(s.sql).run(...s.params);
  }

  async denies(seq: number, limit: number): Promise<DeniedRow[]> {
    const s = deniesAfter(seq, limit, SQLITE_MARK);
    return this.db.prepare(s.sql).all(...s.params) as DeniedRow[];
  }

  async transitions(limit: number): Promise<TransitionRow[]> {
    const s = transitionsQuery(limit, SQLITE_MARK);
    return this.db.prepare(s.sql).all(...s.params) as TransitionRow[];
  }

  async fanOut(rows: readonly OutboxRow[], keys: readonly string[]): Promise<void> {
    this.db.transaction(() => {
      for (const row of rows) {
        const s = insertOutbox(row, SQLITE_MARK);
        this.db.prepare(s.sql).run(...s.params);
      }
      if (keys.length === 0) return;
      const d = deleteTransitions(keys, SQLITE_MARK);
      this.db.prepare(d.sql).run(...d.params);
    })();
  }

  async lease(node: string, now: Date, leaseMs: number, limit: number): Promise<OutboxRow[]> {
    const s = leaseDue(node, now.toISOString(), new Date(now.getTime() + leaseMs).toISOString(), limit, SQLITE_MARK, false);
    return this.db.prepare(s.sql).all(...s.params) as OutboxRow[];
  }

  async finish(attempt: AttemptRow, status: OutboxStatus, nextAt: string | null): Promise<boolean> {
    const { update, insert } = finishAttempt(attempt, status, nextAt, SQLITE_MARK);
    return this.db.transaction(() => {
      if (this.db.prepare(update.sql).run(...update.params).changes === 0) return false;
      this.db.prepare(insert.sql).run(...insert.params);
      return true;
    })();
  }

  async attempts(subscriptionId: string, limit: number): Promise<AttemptView[]> {
    const s = recentAttempts(subscriptionId, limit, SQLITE_MARK);
    return this.db.prepare(s.sql).all(...s.params) as AttemptView[];
  }

  async findDelivery(id: string): Promise<OutboxRow | undefined> {
    return this.db.prepare('SELECT * FROM webhook_outbox WHERE id = ?').get(id) as OutboxRow | undefined;
  }

  async redeliver(subscriptionId: string, id: string, now: Date): Promise<boolean> {
    const s = redeliver(subscriptionId, id, now.toISOString(), SQLITE_MARK);
    return this.db.prepare(s.sql).run(...s.params).changes > 0;
  }
}
