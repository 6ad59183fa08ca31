// Reads of the decision log on PostgreSQL, as sqlite.ts reads SQLite's: the model's filters and orders (model.ts),
// explicit columns (the `rowid` column orders pages and is never part of a row returned), and the same keyset cursor.
import { pageOf } from '../keyset.ts';
import { changesOf, type Queryable, rowsOf } from '../postgres-query.ts';
import type { Page } from '../state-store.ts';
import { POSTGRES_MARK as MARK } from '../statement.ts';
import { COLUMNS, type DecisionFilter, type DecisionRow, forgetArgumentsSql, newestFirstQuery, recordedQuery } from './model.ts';

const ROW = COLUMNS.join(', ');

export async function findDecision(on: Queryable, callId: string): Promise<DecisionRow | undefined> {
  const [row] = await rowsOf<DecisionRow>(on, `SELECT ${ROW} FROM decisions WHERE call_id = $1`, [callId]);
  return row;
}

/** One page newest first, at most `limit`, whether more follow and the next page's cursor (keyset.ts). */
export async function listDecisions(on: Queryable, filter: DecisionFilter): Promise<Page<DecisionRow>> {
  const { sql, params } = newestFirstQuery(`SELECT ${ROW}, rowid AS row_key`, { ...filter, limit: filter.limit + 1 }, MARK);
  return pageOf(await rowsOf<DecisionRow & { row_key: number }>(on, sql, params), filter.limit);
}

/** Recorded calls oldest first (a simulation's source). */
export async function recordedDecisions(on: Queryable, filter: DecisionFilter): Promise<DecisionRow[]> {
  const { sql, params } = recordedQuery(filter, MARK);
  return rowsOf<DecisionRow>(on, sql, params);
}

/** Forgets the arguments of decisions older than `before` (their digest stays). */
export async function forgetOldArguments(on: Queryable, before: Date): Promise<number> {
  return changesOf(on, forgetArgumentsSql(MARK), [before.toISOString()]);
}

export async function countDecisions(on: Queryable): Promise<number> {
  const [row] = await rowsOf<{ n: number }>(on, 'SELECT count(*) AS n FROM decisions');
  return row?.n ?? 0;
}
