// Reads of the decision log on PostgreSQL, as decisions.ts reads SQLite's: the same filters and orders, explicit
// columns (the `rowid` column orders pages and is never part of a row returned), and the same keyset cursor.
import { COLUMNS, type DecisionRow } from './decision-row.ts';
import type { DecisionFilter } from './decisions.ts';
import { pageOf } from './keyset.ts';
import { changesOf, type Queryable, rowsOf } from './postgres-query.ts';
import type { Page } from './state-store.ts';

const ROW = COLUMNS.join(', ');
/** What a simulation reads of each recorded call (decisions.ts, recordedDecisionsQuery). */
const RECORDED = 'call_id, agent, tool, action, decision, rule, code, arguments, created_at';

function decisionsQuery(select: string, filter: DecisionFilter, order: string): { sql: string; values: (string | number)[] } {
  const where: string[] = [];
  const values: (string | number)[] = [];
  const param = (value: string | number) => {
    values.push(value);
    return `$${values.length}`;
  };
  if (filter.agent !== undefined) where.push(`agent = ${param(filter.agent)}`);
  if (filter.since !== undefined) where.push(`created_at >= ${param(filter.since)}`);
  if (filter.until !== undefined) where.push(`created_at <= ${param(filter.until)}`);
  if (filter.shadowDiffers === true) where.push('shadow_differences IS NOT NULL');
  if (filter.after !== undefined) where.push(`(created_at, rowid) < (${param(filter.after.createdAt)}, ${param(filter.after.rowid)})`);
  const sql = `${select} FROM decisions ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ${order} LIMIT ${param(filter.limit)}`;
  return { sql, values };
}

export async function findDecision(on: Queryable, callId: string): Promise<DecisionRow | undefined> {
  const [row] = await rowsOf<DecisionRow>(on, `SELECT ${ROW} FROM decisions WHERE call_id = $1`, [callId]);
  return row;
}

/** One page newest first, at most `limit`, whether more follow and the next page's cursor (keyset.ts). */
export async function listDecisions(on: Queryable, filter: DecisionFilter): Promise<Page<DecisionRow>> {
  const { sql, values } = decisionsQuery(
    `SELECT ${ROW}, rowid AS row_key`,
    { ...filter, limit: filter.limit + 1 },
    'created_at DESC, rowid DESC',
  );
  return pageOf(await rowsOf<DecisionRow & { row_key: number }>(on, sql, values), filter.limit);
}

/** Recorded calls oldest first (a simulation's source); a cursor pages the newest-first list only. */
export async function recordedDecisions(on: Queryable, filter: DecisionFilter): Promise<DecisionRow[]> {
  const { after: _, ...oldestFirst } = filter;
  const { sql, values } = decisionsQuery(`SELECT ${RECORDED}`, oldestFirst, 'created_at, rowid');
  return rowsOf<DecisionRow>(on, sql, values);
}

/** Forgets the arguments of decisions older than `before` (their digest stays). */
export async function forgetOldArguments(on: Queryable, before: Date): Promise<number> {
  return changesOf(on, 'UPDATE decisions SET arguments = NULL WHERE created_at < $1 AND arguments IS NOT NULL', [before.toISOString()]);
}

export async function countDecisions(on: Queryable): Promise<number> {
  const [row] = await rowsOf<{ n: number }>(on, 'SELECT count(*) AS n FROM decisions');
  return row?.n ?? 0;
}

/** Runs of a set since a time: its recorded validate runs and the gate decisions whose versions name it. */
export async function rulesetRunsSince(on: Queryable, ruleset: string, since: Date): Promise<number> {
  const [row] = await rowsOf<{ n: number }>(
    on,
    `SELECT (SELECT count(*) FROM ruleset_runs WHERE ruleset = $1 AND created_at >= $2)
          + (SELECT count(*) FROM decisions WHERE created_at >= $2 AND versions::jsonb ? $1) AS n`,
    [ruleset, since.toISOString()],
  );
  return row?.n ?? 0;
}
