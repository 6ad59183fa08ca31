// The bounds of a node's PostgreSQL pool (docs/deploy.md, "Sizing"): how many connections it keeps, how long it
// waits for one, and what each connection may take on the server (statement_timeout, lock_timeout,
// idle_in_transaction_session_timeout, set on every connection as it opens) and on the client (query_timeout), so
// a stalled database is answered within a known time (503 DATABASE_UNAVAILABLE, state/unavailable.ts), never
// waited on for ever. And the guard: pg emits 'error' on a client whose connection dies, idle or checked out; with
// no listener the process would exit, so every client the pool opens gets one for its whole life (the request
// using it then fails, and is refused, while the node stays up).
import pg from 'pg';

export interface PoolBounds {
  /** Connections kept open at most (the document store's listener and the events' take one each). */
  max: number;
  /** How long a caller waits for a connection (the pool full, or the database slow to accept). */
  connectionTimeoutMs: number;
  /** The server cancels a statement running longer (statement_timeout). */
  statementTimeoutMs: number;
  /** The server gives up waiting for a lock after this (lock_timeout; a session's advisory lock included). */
  lockTimeoutMs: number;
  /** The server ends a session idle inside a transaction this long (idle_in_transaction_session_timeout). */
  idleInTransactionMs: number;
  /** The client gives up on an answer after this, whatever the server does (query_timeout). */
  queryTimeoutMs: number;
}

export const DEFAULT_POOL_BOUNDS: PoolBounds = {
  max: 16,
  connectionTimeoutMs: 5_000,
  statementTimeoutMs: 15_000,
  lockTimeoutMs: 5_000,
  idleInTransactionMs: 30_000,
  queryTimeoutMs: 20_000,
};

/** Each bound's environment variable (whole milliseconds; TOLLGATE_PG_MAX a count). */
export const POOL_BOUND_VARIABLES: Record<keyof PoolBounds, string> = {
  max: 'TOLLGATE_PG_MAX',
  connectionTimeoutMs: 'TOLLGATE_PG_CONNECT_TIMEOUT_MS',
  statementTimeoutMs: 'TOLLGATE_PG_STATEMENT_TIMEOUT_MS',
  lockTimeoutMs: 'TOLLGATE_PG_LOCK_TIMEOUT_MS',
  idleInTransactionMs: 'TOLLGATE_PG_IDLE_IN_TRANSACTION_MS',
  queryTimeoutMs: 'TOLLGATE_PG_QUERY_TIMEOUT_MS',
};

/** Each bound's flag on `tollgate serve` and `tollgate mcp` (cli/options.ts), over its variable. */
export const POOL_BOUND_FLAGS: Record<keyof PoolBounds, string> = {
  max: 'pg-max',
  connectionTimeoutMs: 'pg-connect-timeout-ms',
  statementTimeoutMs: 'pg-statement-timeout-ms',
  lockTimeoutMs: 'pg-lock-timeout-ms',
  idleInTransactionMs: 'pg-idle-in-transaction-ms',
  queryTimeoutMs: 'pg-query-timeout-ms',
};

/**
 * The bounds the flags, else the environment, set over the defaults; a value that is not a whole number from 1
 * is refused (an Error naming the flag or variable).
 */
export function poolBoundsFrom(env: Record<string, string | undefined>, flags: Record<string, unknown> = {}): PoolBounds {
  const bounds = { ...DEFAULT_POOL_BOUNDS };
  for (const key of Object.keys(POOL_BOUND_VARIABLES) as (keyof PoolBounds)[]) {
    const flag = flags[POOL_BOUND_FLAGS[key]];
    const [name, text] =
      typeof flag === 'string' ? [`--${POOL_BOUND_FLAGS[key]}`, flag] : [POOL_BOUND_VARIABLES[key], env[POOL_BOUND_VARIABLES[key]]];
    if (text === undefined || text === '') continue;
    if (!/^[1-9][0-9]{0,8}$/.test(text)) throw new Error(`${name} is a whole number from 1, got ${text}`);
    bounds[key] = Number(text);
  }
  return bounds;
}

/**
 * A pool on `url` within `bounds`, every client it opens guarded (guardClients) and bounded: the server's timeouts
 * are startup parameters of each connection, so they hold from its first statement and cost no round trip.
 */
export function boundedPool(url: string, bounds: PoolBounds): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: bounds.max,
    connectionTimeoutMillis: bounds.connectionTimeoutMs,
    query_timeout: bounds.queryTimeoutMs,
    statement_timeout: bounds.statementTimeoutMs,
    lock_timeout: bounds.lockTimeoutMs,
    idle_in_transaction_session_timeout: bounds.idleInTransactionMs,
  });
  guardClients(pool);
  return pool;
}

/** Gives every client the pool opens an 'error' listener for its whole life. */
export function guardClients(pool: pg.Pool): void {
  // An idle connection the server drops is reported on the pool; the next query opens another.
  pool.on('error', () => {});
  // A connection lost while checked out fails the query in flight, which its caller answers; nothing more here.
  pool.on('connect', (client) => client.on('error', () => {}));
}
