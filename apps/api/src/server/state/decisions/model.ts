// The decision log's model, shared by its SQLite and PostgreSQL stores (sqlite.ts, postgres.ts and their logs) so
// the two cannot drift: one recorded gate decision as a row, the filters of its lists as statements either dialect
// runs, what a session's history is and how it is kept, and how the logs batch their writes. Pure: nothing here
// runs a statement.
import type { PageKey } from '../keyset.ts';
import type { Placeholder, Statement } from '../statement.ts';
import { readStoredJson } from '../stored-json.ts';
import type { DecisionRow } from './row-values.ts';

export type { CallVia, DecisionRow } from './row-values.ts';

export { COLUMNS, rowOfValues, valuesOf } from './row-values.ts';

// SQLite's log batches by time: a decision waits at most FLUSH_AFTER_MS before its batch is written, and a batch of
// MAX_BATCH is written at the next turn instead (docs/performance.md, "API gate"); PostgreSQL's batches by commit
// (decisions/postgres-log.ts), also at most MAX_BATCH rows.
/** How long a decision may wait in the queue; a crash of SQLite's log loses at most this much of it. */
export const FLUSH_AFTER_MS = 2;
/** A batch this large is written at the next turn rather than waiting out the timer. */
export const MAX_BATCH = 256;

export interface DecisionFilter {
  agent?: string;
  /** ISO timestamps, inclusive. */
  since?: string;
  until?: string;
  limit: number;
  /** The key of the previous page's last row: only rows after it, newest first (listDecisions). */
  after?: PageKey;
  /** Only calls with shadow differences (docs/review.md, "Shadow runs of rule files"). */
  shadowDiffers?: boolean;
}

/** What a simulation reads of each recorded call. */
const RECORDED = 'call_id, agent, tool, action, decision, rule, code, arguments, created_at';

/** The statement selecting `select` of the decisions the filter narrows, by the time index or the agent's. */
function decisionsQuery(select: string, filter: DecisionFilter, order: string, mark: Placeholder): Statement {
  const where: string[] = [];
  const params: (string | number)[] = [];
  const param = (value: string | number) => {
    params.push(value);
    return mark(params.length);
  };
  if (filter.agent !== undefined) where.push(`agent = ${param(filter.agent)}`);
  if (filter.since !== undefined) where.push(`created_at >= ${param(filter.since)}`);
  if (filter.until !== undefined) where.push(`created_at <= ${param(filter.until)}`);
  if (filter.shadowDiffers === true) where.push('shadow_differences IS NOT NULL');
  // A row value, which SQLite reads through the index (keyset.ts).
  if (filter.after !== undefined) where.push(`(created_at, rowid) < (${param(filter.after.createdAt)}, ${param(filter.after.rowid)})`);
  const sql = `${select} FROM decisions ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ${order} LIMIT ${param(filter.limit)}`;
  return { sql, params };
}

/** The statement listing decisions newest first, after the filter's cursor; `select` names `rowid AS row_key`. */
export function newestFirstQuery(select: string, filter: DecisionFilter, mark: Placeholder): Statement {
  return decisionsQuery(select, filter, 'created_at DESC, rowid DESC', mark);
}

/**
 * The statement reading recorded calls oldest first for a simulation: in the order the indexes hold them (time,
 * then insertion), so it stops at the limit instead of sorting an agent's whole log.
 */
export function recordedQuery(filter: DecisionFilter, mark: Placeholder): Statement {
  const { after: _, ...oldestFirst } = filter; // a cursor pages the newest-first list only
  return decisionsQuery(`SELECT ${RECORDED}`, oldestFirst, 'created_at, rowid', mark);
}

/** The statement forgetting the arguments of decisions before a time (their digest stays), by the partial index on those. */
export function forgetArgumentsSql(mark: Placeholder): string {
  return `UPDATE decisions SET arguments = NULL WHERE created_at < ${mark(1)} AND arguments IS NOT NULL`;
}

/** A call of a session's history (results are not known to the server). */
export type SessionCall = { tool: string; arguments?: unknown };

/** A session's history is its agent's allowed calls in it, oldest first (by created_at, then insertion). */
export function inSessionHistory(row: DecisionRow, agent: string, session: string): boolean {
  return row.agent === agent && row.session === session && row.decision === 'allow';
}

/**
 * The statement reading a session's history written after a rowid (parameters: agent, session, rowid), by the
 * index on (agent, session, created_at): its entries carry the rowid, so only the new rows are read. (SQLite
 * reads them by an index of its own, decisions/sqlite.ts.)
 */
export function sessionSinceSql(mark: Placeholder): string {
  return `SELECT rowid, call_id, tool, arguments, created_at FROM decisions WHERE agent = ${mark(1)} AND session = ${mark(2)} AND decision = 'allow' AND rowid > ${mark(3)} ORDER BY created_at, rowid`;
}

/** A session row as sessionSinceSql reads it. */
export interface SessionRow {
  rowid: number;
  call_id: string;
  tool: string;
  arguments: string | null;
  created_at: string;
}

/** A row as a call of its session's history. */
export function sessionCall(r: { tool: string; arguments: string | null }): SessionCall {
  return r.arguments === null ? { tool: r.tool } : { tool: r.tool, arguments: readStoredJson(r.arguments) };
}

/** A session's history as read so far: its calls in order, and the highest rowid among them. */
export interface HeldSession {
  calls: { call_id: string; created_at: string; call: SessionCall }[];
  rowid: number;
  /** `calls`' calls and call ids, kept beside them so a call's history costs no walk over the session. */
  history: SessionCall[];
  ids: Set<string>;
}

/** At most this many sessions' histories are kept; the one least recently asked for goes first. */
const MAX_SESSIONS = 1024;

/**
 * Sessions' histories as read so far, so each written call is read and parsed once and later reads fetch only
 * the rows above the highest rowid seen (a long session's calls stay as cheap as its first). Exact because a
 * row's rowid is above every row of its session written before it: SQLite never deletes decisions, and
 * PostgreSQL writes every row of a session under the session's lock (postgres-log.ts).
 */
export class SessionHistories {
  private readonly byKey = new Map<string, HeldSession>();

  /** The session's history as held (empty at first), now the most recently asked for. */
  take(agent: string, session: string): HeldSession {
    const key = JSON.stringify([agent, session]);
    const held = this.byKey.get(key) ?? { calls: [], rowid: 0, history: [], ids: new Set<string>() };
    this.byKey.delete(key);
    this.byKey.set(key, held);
    if (this.byKey.size > MAX_SESSIONS) this.byKey.delete(this.byKey.keys().next().value as string);
    return held;
  }

  /** Forgets every history (their arguments may have been forgotten in the table). */
  clear(): void {
    this.byKey.clear();
  }
}

/** Adds the rows read since `held.rowid` to the history; a row at or below it is one held already (a racing read). */
export function addRead(held: HeldSession, rows: readonly SessionRow[]): void {
  const known = held.rowid;
  for (const r of rows) {
    if (r.rowid <= known) continue;
    held.rowid = Math.max(held.rowid, r.rowid);
    const entry = { call_id: r.call_id, created_at: r.created_at, call: sessionCall(r) };
    // A call decided before one read already (another connection, a node whose clock is behind) goes in its
    // place, as ORDER BY created_at puts it.
    let at = held.calls.length;
    while (at > 0 && (held.calls[at - 1] as { created_at: string }).created_at > r.created_at) at--;
    held.calls.splice(at, 0, entry);
    held.history.splice(at, 0, entry.call);
    held.ids.add(r.call_id);
  }
}

/** The history: the calls written, then the session's calls still queued that are not written yet, in order. */
export function withQueued(held: HeldSession, queued: readonly DecisionRow[], agent: string, session: string): SessionCall[] {
  // A queued row the writer has already written is in the table; the rest follow, in order. Only the queue is
  // walked: a long session's history is copied (a memory copy) only when some of its calls are still queued.
  const unwritten: SessionCall[] = [];
  for (const r of queued) if (inSessionHistory(r, agent, session) && !held.ids.has(r.call_id)) unwritten.push(sessionCall(r));
  return held.history.concat(unwritten);
}
