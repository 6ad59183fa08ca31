// Rotating the member key secret on the PostgreSQL database nodes share (model.ts): read and planned outside, then
// written in one transaction that first locks both tables against writes (so no row is added or changed between its
// checks and its writes), each row only where it still holds what was read.
import { inTransaction, StoreError } from '@tollgate/store';
import type pg from 'pg';
import type { CustodialKeys } from '../members/custodial-keys.ts';
import { NODE_COLUMNS, type NodeRow, nodeViewOf } from '../nodes/model.ts';
import { changesOf, rowsOf } from '../postgres-query.ts';
import { POSTGRES_MARK } from '../statement.ts';
import {
  countsOf,
  MEMBER_KEYS,
  ROW_COUNTS,
  type RotationCounts,
  requireNoLiveNode,
  requireSameRows,
  requireWritten,
  resealingOf,
  resealStatements,
  STORED_SECRETS,
} from './model.ts';

/** How long the transaction waits for the tables' locks before it is refused as `locked`, nothing written. */
const LOCK_WAIT_MS = 5_000;
const LOCK_CODES = new Set(['55P03', '40P01']);

/**
 * Seals every custodial key and webhook secret anew with `to`; throws, writing nothing, when `from` does not open one
 * (SecretMismatchError), another node is live and `force` is not given (NodesRunningError), a row changed meanwhile
 * (RotationConflictError) or the tables stay locked (StoreError `locked`).
 */
export async function rotatePostgres(
  pool: pg.Pool,
  from: CustodialKeys,
  to: CustodialKeys,
  options: { force: boolean; now?: () => Date },
): Promise<RotationCounts> {
  const plan = resealingOf(
    await rowsOf<{ id: string; private_key: string }>(pool, MEMBER_KEYS),
    await rowsOf<{ id: string; secret: string }>(pool, STORED_SECRETS),
    from,
    to,
  );
  await inTransaction(
    pool,
    async (client) => {
      // Reads go on; writes to either table wait until the commit.
      await client.query('LOCK TABLE members, webhook_subscriptions IN SHARE ROW EXCLUSIVE MODE');
      if (!options.force) {
        const now = options.now?.() ?? new Date();
        const rows = await rowsOf<NodeRow>(client, `SELECT ${NODE_COLUMNS.join(', ')} FROM gateways ORDER BY started_at, id`);
        requireNoLiveNode(rows.map((row) => nodeViewOf(row, now)));
      }
      const [counts] = await rowsOf<{ keys: string; secrets: string }>(client, ROW_COUNTS);
      requireSameRows(plan, counts ?? { keys: -1, secrets: -1 });
      for (const s of resealStatements(plan, POSTGRES_MARK)) requireWritten(await changesOf(client, s.sql, s.params), s);
    },
    { lockWaitMs: LOCK_WAIT_MS },
  ).catch((err: unknown) => {
    // lock_not_available, deadlock_detected: another transaction held a table past the wait; rolled back.
    if (LOCK_CODES.has((err as { code?: string }).code ?? '')) {
      throw new StoreError('locked', 'another node held members or webhook_subscriptions past the wait; nothing was written, try again');
    }
    throw err;
  });
  return countsOf(plan);
}
