// The decision log's writes on PostgreSQL (docs/deploy.md, "The state stores"). Unlike SQLite's log
// (sqlite-log.ts), a decision here is acknowledged only once written: the promise of recordDecision resolves
// after the commit that holds its row, and rejects when that write fails (the gate then refuses the call; it
// never answers an allow that was not recorded). What keeps it fast and exact:
// - a call without a session is queued and written by group commit, one multi-row INSERT a batch, one batch at a
//   time (commit-batches.ts);
// - a held call is written at once, with its approval request, in one transaction;
// - a call with a session is written under an advisory lock on (agent, session), and only if the history it was
//   decided on holds every earlier call of the session on every node (one statement a batch of such calls, by the
//   same group commit; recordInSession). Every
//   row of a session is written under that lock, so rowids of a session's rows grow with commit order: a history
//   read once is kept, and later reads fetch only the rows above the highest rowid seen (model.ts,
//   SessionHistories).

import type pg from 'pg';
import { formAroundPlace } from '../../record/chain.ts';
import { approvalRequestedBody, decisionBodyText } from '../../record/entries.ts';
import { type AppendEntry, insertEntriesSql, type PostgresRecord } from '../../record/postgres.ts';
import { type EntryRow, entryValues } from '../../record/writer.ts';
import type { ApprovalRow } from '../approvals/model.ts';
import { insertApproval } from '../approvals/postgres.ts';
import { placeholders, preparedRowsOf, type Queryable, rowsOf } from '../postgres-query.ts';
import { type DecisionRecord, type HistoryRead, NO_HISTORY } from '../state-store.ts';
import { POSTGRES_MARK } from '../statement.ts';
import { CommitBatches } from './commit-batches.ts';
import {
  addRead,
  COLUMNS,
  type DecisionRow,
  inSessionHistory,
  MAX_BATCH,
  type SessionCall,
  SessionHistories,
  type SessionRow,
  sessionSinceSql,
  valuesOf,
} from './model.ts';

/** The statements writing 1..MAX_BATCH rows, made once each (a batch's size repeats). */
const INSERTS: string[] = [];

/** The statement writing `count` decision rows at once. */
function insertRows(count: number): string {
  const made = INSERTS[count];
  if (made !== undefined) return made;
  const rows = Array.from({ length: count }, (_, i) => `(${placeholders(COLUMNS.length, i * COLUMNS.length + 1)})`);
  const text = `INSERT INTO decisions (${COLUMNS.join(', ')}) VALUES ${rows.join(', ')}`;
  if (count <= MAX_BATCH) INSERTS[count] = text;
  return text;
}

/** The statements writing 1..MAX_BATCH rows with their record entries, in one statement (made once each). */
const CHAINED_INSERTS: string[] = [];

function insertChainedRows(count: number): string {
  const made = CHAINED_INSERTS[count];
  if (made !== undefined) return made;
  const text = `WITH written AS (${insertRows(count)}) ${insertEntriesSql(count, count * COLUMNS.length + 1)}`;
  if (count <= MAX_BATCH) CHAINED_INSERTS[count] = text;
  return text;
}

/** Writes a batch of calls and their record entries (one each, in order) in one statement. */
async function insertChainedDecisions(on: Queryable, rows: readonly DecisionRow[], entries: readonly EntryRow[]): Promise<void> {
  const query = rows.length <= MAX_BATCH ? preparedRowsOf : rowsOf;
  await query(on, insertChainedRows(rows.length), [...rows.flatMap(valuesOf), ...entries.flatMap(entryValues)]);
}

/** A decision's record entry, and its approval request's for a held call. */
function appendDecision(append: AppendEntry, row: DecisionRow, approval?: ApprovalRow): EntryRow[] {
  const entries = [append('decision', row.created_at, row.call_id, decisionBodyText(row))];
  if (approval) entries.push(append('approval.requested', approval.created_at, approval.id, approvalRequestedBody(approval)));
  return entries;
}

export async function insertDecisions(on: Queryable, rows: readonly DecisionRow[]): Promise<void> {
  if (rows.length === 0) return;
  // A batch's statement is prepared (its sizes repeat); an import's one-off size is not.
  const query = rows.length <= MAX_BATCH ? preparedRowsOf : rowsOf;
  await query(on, insertRows(rows.length), rows.flatMap(valuesOf));
}

const SESSION_SINCE_SQL = sessionSinceSql(POSTGRES_MARK);

const RECORD_SESSION_CALLS_SQL =
  'SELECT item, rowid, call_id, tool, arguments, created_at, written, entry_seq, entry_hash FROM tollgate_record_session_calls_chained($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)';

/** Tries of the one-statement write before a call of a contended session is decided under the lock instead. */
const MAX_OPTIMISTIC = 4;

/** The advisory lock every call of a session is written under, on every node. */
function sessionLockKey(agent: string, session: string): string {
  return JSON.stringify(['tollgate.session', agent, session]);
}

/** A call of a session for its batch: written, or refused with the session's calls it had not seen. */
interface SessionWrite {
  lock: string;
  agent: string;
  session: string;
  seen: number;
  row: DecisionRow;
}

type SessionOutcome = { written: true; rowid: number } | { written: false; missed: SessionRow[] };

/** What the session function answers of one call of its batch (numbered from 1). */
type SessionAnswer = SessionRow & { item: number; written: boolean };

/** A row as JSON keyed by column, as the session function reads it. */
function columnsOf(row: DecisionRow): Record<string, unknown> {
  const values = valuesOf(row);
  return Object.fromEntries(COLUMNS.map((c, i) => [c, values[i]]));
}

/**
 * Writes a batch of session calls in one statement, which also chains the record entries of those written from this
 * node's head (tollgate_record_session_calls_chained); answers each call's outcome, in order.
 */
function writeSessionBatch(pool: pg.Pool, record: PostgresRecord, batch: readonly SessionWrite[]): Promise<SessionOutcome[]> {
  return record.chainedFrom(async (head) => {
    const forms = batch.map((w) => formAroundPlace(head.writer, 'decision', w.row.created_at, decisionBodyText(w.row)));
    const answers = await preparedRowsOf<SessionAnswer & { entry_seq: number | null; entry_hash: string | null }>(
      pool,
      RECORD_SESSION_CALLS_SQL,
      [
        batch.map((w) => w.lock),
        batch.map((w) => w.agent),
        batch.map((w) => w.session),
        batch.map((w) => w.seen),
        batch.map((w) => JSON.stringify(columnsOf(w.row))),
        head.writer,
        head.seq,
        head.hash,
        forms.map((f) => f.head),
        forms[0]?.tail ?? '',
        batch.map((w) => w.row.created_at),
        batch.map((w) => w.row.call_id),
      ],
    );
    const outcomes: SessionOutcome[] = batch.map(() => ({ written: false, missed: [] }));
    const written: EntryRow[] = [];
    let prev = head.hash;
    for (const a of answers) {
      const outcome = outcomes[a.item - 1];
      const w = batch[a.item - 1];
      if (outcome === undefined || w === undefined) continue;
      if (a.written) {
        outcomes[a.item - 1] = { written: true, rowid: a.rowid };
        const { row } = w;
        const hash = a.entry_hash as string;
        written.push({
          writer: head.writer,
          seq: Number(a.entry_seq),
          kind: 'decision',
          at: row.created_at,
          ref: row.call_id,
          body: decisionBodyText(row),
          prev,
          hash,
        });
        prev = hash;
      } else if (!outcome.written) outcome.missed.push(a);
    }
    return { result: outcomes, written };
  });
}

export class PostgresDecisionLog {
  private readonly pool: pg.Pool;
  /** Calls without a session, and calls of sessions, each written by group commit. */
  private readonly calls: CommitBatches<DecisionRow, undefined>;
  private readonly sessionCalls: CommitBatches<SessionWrite, SessionOutcome>;
  readonly sessions = new SessionHistories();

  /** @param chain this node's record: every call is chained in the statement or transaction that writes it. */
  constructor(
    pool: pg.Pool,
    private readonly chain: PostgresRecord,
  ) {
    this.pool = pool;
    this.calls = new CommitBatches((rows) =>
      chain
        .chained((append) =>
          insertChainedDecisions(
            pool,
            rows,
            rows.flatMap((row) => appendDecision(append, row)),
          ),
        )
        .then(() => rows.map(() => undefined)),
    );
    this.sessionCalls = new CommitBatches((writes) => writeSessionBatch(pool, chain, writes));
  }

  /** Whether the last batch of either queue failed to commit: a readiness check (../readiness.ts). */
  get failing(): boolean {
    return this.calls.failing || this.sessionCalls.failing;
  }

  /** Calls queued or being written and not yet committed (a metric read at scrape). */
  get queued(): number {
    return this.calls.unwritten().length + this.sessionCalls.unwritten().length;
  }

  /** When the oldest call queued or being written was decided (ISO), or null when none waits. */
  oldestUnwritten(): string | null {
    // ISO times of one format compare as text.
    const times = [this.calls.unwritten()[0]?.created_at, this.sessionCalls.unwritten()[0]?.row.created_at];
    return times.filter((t): t is string => t !== undefined).sort()[0] ?? null;
  }

  /** Decides and records one call (state-store.ts, recordDecision); resolves once the row is committed. */
  async record(agent: string, session: string | undefined, decide: (history: HistoryRead) => DecisionRecord): Promise<DecisionRecord> {
    if (session !== undefined) return this.recordInSession(agent, session, decide);
    const record = decide(NO_HISTORY);
    if (record.approval) await this.recordHeld(record.row, record.approval);
    else await this.calls.add(record.row);
    return record;
  }

  /** The session's written allowed calls, oldest first (read without the lock: a reader's view, not a decider's). */
  async sessionHistory(agent: string, session: string): Promise<SessionCall[]> {
    return this.readHistory(this.pool, agent, session);
  }

  /** The session's calls, oldest first: those held, and the rows written since. */
  private async readHistory(on: Queryable, agent: string, session: string): Promise<SessionCall[]> {
    const held = this.sessions.take(agent, session);
    addRead(held, await rowsOf<SessionRow>(on, SESSION_SINCE_SQL, [agent, session, held.rowid]));
    return held.calls.map((c) => c.call);
  }

  /**
   * A call of a session: decided on the history this node holds, then written with the other sessions' calls of
   * its batch by one statement that takes the sessions' locks and writes a call only if no allowed call of its
   * session was written since that history (the migration's tollgate_record_session_calls); else the calls it
   * missed come back, are added, and the call is decided again for the next batch. A held call, or a session
   * contended past MAX_OPTIMISTIC tries, is decided inside a transaction holding the session's lock.
   */
  private async recordInSession(agent: string, session: string, decide: (history: HistoryRead) => DecisionRecord): Promise<DecisionRecord> {
    const lock = sessionLockKey(agent, session);
    for (let attempt = 0; attempt < MAX_OPTIMISTIC; attempt++) {
      const held = this.sessions.take(agent, session);
      const seen = held.rowid;
      const record = decide(() => held.calls.map((c) => c.call));
      if (record.approval) break;
      const outcome = await this.sessionCalls.add({ lock, agent, session, seen, row: record.row });
      if (outcome.written) {
        const { row } = record;
        if (inSessionHistory(row, agent, session)) addRead(held, [{ ...row, rowid: outcome.rowid }]);
        // No allowed call of the session lies between `seen` and this row: the function looked under the lock.
        else held.rowid = Math.max(held.rowid, outcome.rowid);
        return record;
      }
      addRead(held, outcome.missed);
    }
    return this.chain.inChainedTransaction(async (client, append) => {
      await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [lock]);
      const history = await this.readHistory(client, agent, session);
      const record = decide(() => history);
      await insertDecisions(client, [record.row]);
      if (record.approval) await insertApproval(client, record.approval);
      appendDecision(append, record.row, record.approval);
      return record;
    });
  }

  /** Writes a held call at once, after the calls queued before it, with its approval request in one transaction. */
  private async recordHeld(row: DecisionRow, approval: ApprovalRow): Promise<void> {
    await this.flush().catch(() => {
      // Those calls' own callers are told their write failed; this one is written regardless.
    });
    await this.chain.inChainedTransaction(async (client, append) => {
      await insertDecisions(client, [row]);
      await insertApproval(client, approval);
      appendDecision(append, row, approval);
    });
  }

  /** Waits until every decision queued so far is written (or its write has failed, which its caller was told). */
  async flush(): Promise<void> {
    await Promise.all([this.calls.flush(), this.sessionCalls.flush()]);
  }

  /** Writes what is queued; the pool is the caller's. */
  async close(): Promise<void> {
    await this.flush();
  }
}
