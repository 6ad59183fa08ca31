// Recorded gate decisions on SQLite: every call an agent sends, with the document versions that decided it and the
// arguments' digest (kept always; the arguments themselves only for the retention period). Writes are
// batched by the decision log (sqlite-log.ts); every read here flushes it first. The filters, the session rules
// and the row are the model's (model.ts), which PostgreSQL's reads share (postgres.ts).
import type Database from 'better-sqlite3';
import type { Db } from '../db.ts';
import { pageOf } from '../keyset.ts';
import { SQLITE_MARK as MARK, type Statement } from '../statement.ts';
import {
  addRead,
  type DecisionFilter,
  type DecisionRow,
  forgetArgumentsSql,
  newestFirstQuery,
  recordedQuery,
  type SessionCall,
  SessionHistories,
  type SessionRow,
  withQueued,
} from './model.ts';
import { flushDecisions, unwrittenDecisions } from './sqlite-log.ts';

/** Writes one decision at once (after any queued ones); the gate queues through `decisionLogOf(db)` instead. */
export function insertDecision(db: Db, row: DecisionRow): void {
  flushDecisions(db);
  db.prepare(
    `INSERT INTO decisions (call_id, agent, tool, action, amount, currency, decision, rule, code, versions, arguments, arguments_digest, session, created_at)
     VALUES (@call_id, @agent, @tool, @action, @amount, @currency, @decision, @rule, @code, @versions, @arguments, @arguments_digest, @session, @created_at)`,
  ).run(row);
}

export function findDecision(db: Db, callId: string): DecisionRow | undefined {
  flushDecisions(db);
  return db.prepare('SELECT * FROM decisions WHERE call_id = ?').get(callId) as DecisionRow | undefined;
}

/** A session's allowed calls, by the index on (agent, session, created_at). */
export const SESSION_HISTORY_SQL =
  "SELECT call_id, tool, arguments FROM decisions WHERE agent = ? AND session = ? AND decision = 'allow' ORDER BY created_at, rowid";

/**
 * A session's allowed calls written after the row `rowid`, in rowid order: a seek on decisions_by_session_row
 * (agent, session, then the rowid every index ends in), with no walk over the session's older entries and no
 * sort; addRead puts each row in its created_at place. A row's rowid is above every row written before it
 * (decisions are never deleted), whichever connection writes it.
 */
export const SESSION_HISTORY_SINCE_SQL =
  "SELECT rowid, call_id, tool, arguments, created_at FROM decisions WHERE agent = ? AND session = ? AND decision = 'allow' AND rowid > ? ORDER BY rowid";

/** Decisions past retention that still hold their arguments, by the partial index on those. */
export const FORGET_ARGUMENTS_SQL = forgetArgumentsSql(MARK);

/** The histories read so far, of each database. */
const histories = new WeakMap<Db, SessionHistories>();

/**
 * The session's earlier allowed calls of this agent, oldest first (results are not known to the server).
 * It reads the calls still queued in the decision log too, rather than waiting for them to be written:
 * the gate asks this on every call with a session, so each written call is read and parsed once, and
 * later asks read only the calls written since (a long MCP session's calls stay as cheap as its first).
 */
export function sessionHistory(db: Db, agent: string, session: string): SessionCall[] {
  const queued = unwrittenDecisions(db);
  let byDb = histories.get(db);
  if (!byDb) {
    byDb = new SessionHistories();
    histories.set(db, byDb);
  }
  const held = byDb.take(agent, session);
  addRead(held, sinceStatement(db).all(agent, session, held.rowid) as SessionRow[]);
  return withQueued(held, queued, agent, session);
}

const sinceStatements = new WeakMap<Db, Database.Statement<unknown[]>>();

/** SESSION_HISTORY_SINCE_SQL prepared once per database: preparing it took about 0.05 ms of every gate call. */
function sinceStatement(db: Db): Database.Statement<unknown[]> {
  let statement = sinceStatements.get(db);
  if (!statement) {
    statement = db.prepare(SESSION_HISTORY_SINCE_SQL);
    sinceStatements.set(db, statement);
  }
  return statement;
}

/** Forgets the arguments of decisions older than the retention period (their digest stays). */
export function forgetOldArguments(db: Db, before: Date): number {
  flushDecisions(db);
  // The histories read so far hold arguments this forgets: they are read again.
  histories.delete(db);
  return db.prepare(FORGET_ARGUMENTS_SQL).run(before.toISOString()).changes;
}

export function countDecisions(db: Db): number {
  flushDecisions(db);
  return (db.prepare('SELECT COUNT(*) AS n FROM decisions').get() as { n: number }).n;
}

/** The statement listing decisions newest first (by the time index, or the agent's), and its parameters. */
export function listDecisionsQuery(filter: DecisionFilter): Statement {
  return newestFirstQuery('SELECT *, rowid AS row_key', filter, MARK);
}

/** The statement reading recorded calls oldest first for a simulation, and its parameters (model.ts, recordedQuery). */
export function recordedDecisionsQuery(filter: DecisionFilter): Statement {
  return recordedQuery(filter, MARK);
}

/** Recorded calls oldest first, as the filter narrows them (a simulation's source). */
export function recordedDecisions(db: Db, filter: DecisionFilter): DecisionRow[] {
  flushDecisions(db);
  const { sql, params } = recordedDecisionsQuery(filter);
  return db.prepare(sql).all(...params) as DecisionRow[];
}

/**
 * One page of decisions newest first, as the filter narrows them: at most `limit`, whether more follow, and
 * the cursor of the next page (keyset.ts).
 */
export function listDecisions(db: Db, filter: DecisionFilter): { rows: DecisionRow[]; more: boolean; next: string | null } {
  flushDecisions(db);
  const { sql, params } = listDecisionsQuery({ ...filter, limit: filter.limit + 1 });
  return pageOf(db.prepare(sql).all(...params) as (DecisionRow & { row_key: number })[], filter.limit);
}
