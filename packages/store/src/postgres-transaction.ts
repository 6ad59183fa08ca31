// Transactions on PostgreSQL, the one helper the document store and the server's state share, and one write of
// the document store: lock waits bounded (lock_timeout), refused as `locked` past the bound, ending with the change
// generation bumped and the write announced (docs/store.md, "The PostgreSQL store").
import type pg from 'pg';
import { DOCUMENTS_CHANNEL, schemaChannelSql } from './postgres-schema.ts';
import { StoreError } from './types.ts';

/** SQLSTATEs of a lock not had: lock_not_available (lock_timeout), deadlock_detected. Nothing was written. */
const LOCK_CODES = new Set(['55P03', '40P01']);

export interface TransactionOptions {
  /** How long a statement may wait for a lock before the transaction fails with lock_not_available; unbounded when absent. */
  lockWaitMs?: number;
}

/**
 * Runs `work` in a transaction on one pooled connection: committed when it returns, rolled back when it throws.
 * READ COMMITTED whatever the server's default, so each statement sees what was committed before it began (a
 * session's history read after its lock is taken holds the calls of the lock's previous holder). The one
 * transaction helper of the document store and the server's state.
 *
 * @example
 * await inTransaction(pool, (client) => client.query('UPDATE t SET n = n + 1'), { lockWaitMs: 2000 });
 */
export async function inTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN ISOLATION LEVEL READ COMMITTED');
    try {
      if (options.lockWaitMs !== undefined) {
        // lock_timeout 0 would mean "wait for ever": the smallest bound is one millisecond.
        await client.query("SELECT set_config('lock_timeout', $1, true)", [`${Math.max(1, Math.ceil(options.lockWaitMs))}ms`]);
      }
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch((rollback: unknown) => {
        // A connection that cannot roll back is not given back to the pool.
        broken = rollback instanceof Error ? rollback : new Error(String(rollback));
      });
      throw err;
    }
  } finally {
    client.release(broken);
  }
}

/**
 * One write of the store: inTransaction with lock waits bounded by `waitMs`, a lock not had refused as `locked`.
 * A StoreError thrown by `work` (a conflict, a precondition) rolls back everything, so a refusal writes nothing.
 */
export async function inWriteTransaction<T>(pool: pg.Pool, waitMs: number, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  try {
    return await inTransaction(pool, work, { lockWaitMs: waitMs });
  } catch (err) {
    if (LOCK_CODES.has((err as { code?: string }).code ?? '')) {
      throw new StoreError('locked', 'another node holds the lock on this document or value; nothing was written, try again shortly');
    }
    throw err;
  }
}

/** What a write announces: the document and the sequence that now runs or was stored, or a state key; `origin` names the store that wrote. */
export type ChangeNotice = { id: string; sequence: number | null; origin: string } | { key: string; origin: string };

/** Bumps the change generation and announces the write; both take effect on commit, with the write. Last in a transaction: the one-row lock is held briefly. */
export async function recordChange(client: pg.ClientBase, notice: ChangeNotice): Promise<void> {
  await client.query('UPDATE document_changes SET generation = generation + 1');
  await client.query(`SELECT pg_notify(${schemaChannelSql('$1::text')}, $2)`, [DOCUMENTS_CHANNEL, JSON.stringify(notice)]);
}

/** A BIGINT as pg hands it (a string), read exactly: refused when it is not a safe integer. */
export function exactInteger(value: unknown, what: string): number {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isSafeInteger(n)) throw new StoreError('damaged', `${what} is ${String(value)}, not an integer a number holds exactly`);
  return n;
}
