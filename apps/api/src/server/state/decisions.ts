// Recorded gate decisions: every call an agent sends, with the document versions that decided it and the
// arguments' digest (kept always; the arguments themselves only for the retention period). Writes are
// batched by the decision log (decision-log.ts); every read here flushes it first.
import { hash } from 'node:crypto';
import { canonicalJson } from '@tollgate/engine';
import type { Db } from './db.ts';
import { flushDecisions, unwrittenDecisions } from './decision-log.ts';
import type { DecisionRow } from './decision-row.ts';
import { AFTER_KEY_SQL, type PageKey, pageOf } from './keyset.ts';
import { readStoredJson } from './stored-json.ts';

export type { DecisionRow } from './decision-row.ts';

/** The sha-256 (hex) of the arguments' canonical JSON (sorted keys, no spaces). */
export function argumentsDigest(args: unknown): string {
  return hash('sha256', canonicalJson(args), 'hex');
}

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
 * A session's allowed calls written after the row `rowid`, by the same index: its entries carry the rowid, so
 * the rows read are the new ones only. A row's rowid is above every row written before it (decisions are never
 * deleted), whichever connection writes it.
 */
export const SESSION_HISTORY_SINCE_SQL =
  "SELECT rowid, call_id, tool, arguments, created_at FROM decisions WHERE agent = ? AND session = ? AND decision = 'allow' AND rowid > ? ORDER BY created_at, rowid";

/** Decisions past retention that still hold their arguments, by the partial index on those. */
export const FORGET_ARGUMENTS_SQL = 'UPDATE decisions SET arguments = NULL WHERE created_at < ? AND arguments IS NOT NULL';

export type SessionCall = { tool: string; arguments?: unknown };

/** A session's history as read so far: its calls in order, and the highest rowid among them. */
interface ReadSession {
  calls: { call_id: string; created_at: string; call: SessionCall }[];
  rowid: number;
}

/** At most this many sessions' histories are kept; the one least recently asked for goes first. */
const MAX_SESSIONS = 1024;
const sessions = new WeakMap<Db, Map<string, ReadSession>>();

function sessionCall(r: { tool: string; arguments: string | null }): SessionCall {
  return r.arguments === null ? { tool: r.tool } : { tool: r.tool, arguments: readStoredJson(r.arguments) };
}

/** The session's written calls: those read before, and any written since (read and parsed once each). */
function writtenHistory(db: Db, agent: string, session: string): ReadSession['calls'] {
  let byKey = sessions.get(db);
  if (!byKey) {
    byKey = new Map();
    sessions.set(db, byKey);
  }
  const key = `${agent}\u0000${session}`;
  const read = byKey.get(key) ?? { calls: [], rowid: 0 };
  byKey.delete(key);
  byKey.set(key, read);
  if (byKey.size > MAX_SESSIONS) byKey.delete(byKey.keys().next().value as string);
  const fresh = db.prepare(SESSION_HISTORY_SINCE_SQL).all(agent, session, read.rowid) as {
    rowid: number;
    call_id: string;
    tool: string;
    arguments: string | null;
    created_at: string;
  }[];
  for (const r of fresh) {
    read.rowid = Math.max(read.rowid, r.rowid);
    const entry = { call_id: r.call_id, created_at: r.created_at, call: sessionCall(r) };
    // Another connection may write a call decided before one read already: it goes in its place, as the
    // ORDER BY of SESSION_HISTORY_SQL would put it.
    let at = read.calls.length;
    while (at > 0 && (read.calls[at - 1] as { created_at: string }).created_at > r.created_at) at--;
    read.calls.splice(at, 0, entry);
  }
  return read.calls;
}

/**
 * The session's earlier allowed calls of this agent, oldest first (results are not known to the server).
 * It reads the calls still queued in the decision log too, rather than waiting for them to be written:
 * the gate asks this on every call with a session, so each written call is read and parsed once, and
 * later asks read only the calls written since (a long MCP session's calls stay as cheap as its first).
 */
export function sessionHistory(db: Db, agent: string, session: string): SessionCall[] {
  const queued = unwrittenDecisions(db).filter((r) => r.agent === agent && r.session === session && r.decision === 'allow');
  const written = writtenHistory(db, agent, session);
  const history = written.map((w) => w.call);
  if (queued.length > 0) {
    // A queued row the writer has already written is in the table; the rest follow, in order.
    const seen = new Set(written.map((w) => w.call_id));
    for (const r of queued) if (!seen.has(r.call_id)) history.push(sessionCall(r));
  }
  return history;
}

/** Forgets the arguments of decisions older than the retention period (their digest stays). */
export function forgetOldArguments(db: Db, before: Date): number {
  flushDecisions(db);
  // The histories read so far hold arguments this forgets: they are read again.
  sessions.delete(db);
  return db.prepare(FORGET_ARGUMENTS_SQL).run(before.toISOString()).changes;
}

export function countDecisions(db: Db): number {
  flushDecisions(db);
  return (db.prepare('SELECT COUNT(*) AS n FROM decisions').get() as { n: number }).n;
}

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

/** The statement listing decisions newest first (by the time index, or the agent's), and its parameters. */
export function listDecisionsQuery(filter: DecisionFilter): { sql: string; params: (string | number)[] } {
  return decisionsQuery('SELECT *, rowid AS row_key', filter, 'created_at DESC, rowid DESC');
}

/**
 * The statement reading recorded calls oldest first for a simulation, and its parameters: in the order the
 * indexes hold them (time, then insertion), so it stops at the limit instead of sorting an agent's whole log.
 */
export function recordedDecisionsQuery(filter: DecisionFilter): { sql: string; params: (string | number)[] } {
  const { after: _, ...oldestFirst } = filter; // a cursor pages the newest-first list only
  return decisionsQuery(
    'SELECT call_id, agent, tool, action, decision, rule, code, arguments, created_at',
    oldestFirst,
    'created_at, rowid',
  );
}

/** Recorded calls oldest first, as the filter narrows them (a simulation's source). */
export function recordedDecisions(db: Db, filter: DecisionFilter): DecisionRow[] {
  flushDecisions(db);
  const { sql, params } = recordedDecisionsQuery(filter);
  return db.prepare(sql).all(...params) as DecisionRow[];
}

function decisionsQuery(select: string, filter: DecisionFilter, order: string): { sql: string; params: (string | number)[] } {
  const where: string[] = [];
  const params: (string | number)[] = [];
  if (filter.agent !== undefined) {
    where.push('agent = ?');
    params.push(filter.agent);
  }
  if (filter.since !== undefined) {
    where.push('created_at >= ?');
    params.push(filter.since);
  }
  if (filter.until !== undefined) {
    where.push('created_at <= ?');
    params.push(filter.until);
  }
  if (filter.shadowDiffers === true) where.push('shadow_differences IS NOT NULL');
  if (filter.after !== undefined) {
    where.push(AFTER_KEY_SQL);
    params.push(filter.after.createdAt, filter.after.rowid);
  }
  params.push(filter.limit);
  return { sql: `${select} FROM decisions ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ${order} LIMIT ?`, params };
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
