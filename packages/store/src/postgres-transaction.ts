// One write of the PostgreSQL store: a transaction on a pooled connection whose lock waits are bounded
// (lock_timeout), refused as `locked` past the bound, and which ends with the change generation bumped and
// the write announced (docs/store.md, "The PostgreSQL store").
import type pg from 'pg';
import { DOCUMENTS_CHANNEL } from './postgres-schema.ts';
import { StoreError } from './types.ts';

/** SQLSTATEs of a lock not had: lock_not_available (lock_timeout), deadlock_detected. Nothing was written. */
const LOCK_CODES = new Set(['55P03', '40P01']);

/**
 * Runs `work` in a transaction; a lock wait longer than `waitMs` refuses the write as `locked`. A
 * StoreError thrown by `work` (a conflict, a precondition) rolls back everything, so a refusal writes nothing.
 */
export async function inTransaction<T>(pool: pg.Pool, waitMs: number, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    // lock_timeout 0 would mean "wait for ever": the smallest bound is one millisecond.
    await client.query("SELECT set_config('lock_timeout', $1, true)", [`${Math.max(1, Math.ceil(waitMs))}ms`]);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch((rollbackError: Error) => {
      broken = rollbackError;
    });
    if (LOCK_CODES.has((err as { code?: string }).code ?? '')) {
      throw new StoreError('locked', 'another node holds the lock on this document or value; nothing was written, try again shortly');
    }
    throw err;
  } finally {
    // A connection whose rollback failed is not given back to the pool.
    client.release(broken);
  }
}

/** What a write announces: the document and the sequence that now runs or was stored, or a state key; `origin` names the store that wrote. */
export type ChangeNotice = { id: string; sequence: number | null; origin: string } | { key: string; origin: string };

/** Bumps the change generation and announces the write; both take effect on commit, with the write. Last in a transaction: the one-row lock is held briefly. */
export async function recordChange(client: pg.ClientBase, notice: ChangeNotice): Promise<void> {
  await client.query('UPDATE document_changes SET generation = generation + 1');
  await client.query('SELECT pg_notify($1, $2)', [DOCUMENTS_CHANNEL, JSON.stringify(notice)]);
}

/** A BIGINT as pg hands it (a string), read exactly: refused when it is not a safe integer. */
export function exactInteger(value: unknown, what: string): number {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isSafeInteger(n)) throw new StoreError('damaged', `${what} is ${String(value)}, not an integer a number holds exactly`);
  return n;
}
