// The decision log's writes on PostgreSQL (docs/deploy.md, "The state stores"). Unlike SQLite's log
// (sqlite-log.ts), a decision here is acknowledged only once written: the promise of recordDecision resolves
// after the commit that holds its row, and rejects when that write fails (the gate then refuses the call; it
// never answers an allow that was not recorded). What keeps it fast and exact:
// - a call without a session is queued and written by group commit, one multi-row INSERT at a time: the calls of
//   a turn go at its end when no batch is being written, else they wait for that batch's commit and go
//   together after it (at most MAX_BATCH rows a batch, model.ts). No timer: a node waiting on the database's
//   commit gathers the next batch meanwhile, and an idle one writes at once (docs/performance.md, "The cluster
//   suite");
// - a held call is written at once, with its approval request, in one transaction;
// - a call with a session is written under an advisory lock on (agent, session), and only if the history it was
//   decided on holds every earlier call of the session on every node (one statement; recordInSession). Every
//   row of a session is written under that lock, so rowids of a session's rows grow with commit order: a history
//   read once is kept, and later reads fetch only the rows above the highest rowid seen (model.ts,
//   SessionHistories).

import { inTransaction } from '@tollgate/store';
import type pg from 'pg';
import type { ApprovalRow } from '../approvals/model.ts';
import { insertApproval } from '../approvals/postgres.ts';
import { placeholders, preparedRowsOf, type Queryable, rowsOf } from '../postgres-query.ts';
import type { DecisionRecord } from '../state-store.ts';
import { POSTGRES_MARK } from '../statement.ts';
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

interface Queued {
  row: DecisionRow;
  resolve: () => void;
  reject: (err: unknown) => void;
}

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

export async function insertDecisions(on: Queryable, rows: readonly DecisionRow[]): Promise<void> {
  if (rows.length === 0) return;
  // A batch's statement is prepared (its sizes repeat); an import's one-off size is not.
  const query = rows.length <= MAX_BATCH ? preparedRowsOf : rowsOf;
  await query(on, insertRows(rows.length), rows.flatMap(valuesOf));
}

const SESSION_SINCE_SQL = sessionSinceSql(POSTGRES_MARK);

const RECORD_SESSION_CALLS_SQL =
  'SELECT item, rowid, call_id, tool, arguments, created_at, written FROM tollgate_record_session_calls($1, $2, $3, $4, $5)';

/** Tries of the one-statement write before a call of a contended session is decided under the lock instead. */
const MAX_OPTIMISTIC = 4;

/** The advisory lock every call of a session is written under, on every node. */
function sessionLockKey(agent: string, session: string): string {
  return JSON.stringify(['tollgate.session', agent, session]);
}

/** A call of a session waiting for its batch: written, or refused with the session's calls it had not seen. */
interface SessionQueued {
  lock: string;
  agent: string;
  session: string;
  seen: number;
  row: DecisionRow;
  resolve: (outcome: SessionOutcome) => void;
  reject: (err: unknown) => void;
}

type SessionOutcome = { written: true; rowid: number } | { written: false; missed: SessionRow[] };

/** What the session function answers of one call of its batch (numbered from 1). */
type SessionAnswer = SessionRow & { item: number; written: boolean };

/** A row as JSON keyed by column, as the session function reads it. */
function columnsOf(row: DecisionRow): Record<string, unknown> {
  const values = valuesOf(row);
  return Object.fromEntries(COLUMNS.map((c, i) => [c, values[i]]));
}

export class PostgresDecisionLog {
  private readonly pool: pg.Pool;
  private queue: Queued[] = [];
  private immediate: NodeJS.Immediate | undefined;
  /** Batches being written: flush() waits for them too. */
  private readonly writing = new Set<Promise<void>>();
  /** Calls of sessions waiting for their batch, and the batch being written (one at a time, as above). */
  private sessionQueue: SessionQueued[] = [];
  private sessionWriting: Promise<void> | undefined;
  private sessionImmediate: NodeJS.Immediate | undefined;
  readonly sessions = new SessionHistories();

  /** Set while the last batch written failed, cleared when one commits: a readiness check (../readiness.ts). */
  failing = false;

  constructor(pool: pg.Pool) {
    this.pool = pool;
  }

  /** Batches being written, by their oldest row's time: the log's lag counts them until they commit. */
  private readonly writingSince = new Map<Promise<void>, { since: string; rows: number }>();

  /** Calls queued or being written and not yet committed (a metric read at scrape). */
  get queued(): number {
    let rows = this.queue.length;
    for (const w of this.writingSince.values()) rows += w.rows;
    return rows;
  }

  /** When the oldest call queued or being written was decided (ISO), or null when none waits. */
  oldestUnwritten(): string | null {
    let oldest = this.queue[0]?.row.created_at ?? null;
    for (const { since } of this.writingSince.values()) if (oldest === null || since < oldest) oldest = since;
    return oldest;
  }

  /** Decides and records one call (state-store.ts, recordDecision); resolves once the row is committed. */
  async record(agent: string, session: string | undefined, decide: (history: SessionCall[]) => DecisionRecord): Promise<DecisionRecord> {
    if (session !== undefined) return this.recordInSession(agent, session, decide);
    const record = decide([]);
    if (record.approval) await this.recordHeld(record.row, record.approval);
    else await this.enqueue(record.row);
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
  private async recordInSession(
    agent: string,
    session: string,
    decide: (history: SessionCall[]) => DecisionRecord,
  ): Promise<DecisionRecord> {
    const lock = sessionLockKey(agent, session);
    for (let attempt = 0; attempt < MAX_OPTIMISTIC; attempt++) {
      const held = this.sessions.take(agent, session);
      const seen = held.rowid;
      const record = decide(held.calls.map((c) => c.call));
      if (record.approval) break;
      const outcome = await this.enqueueSession(lock, agent, session, seen, record.row);
      if (outcome.written) {
        const { row } = record;
        if (inSessionHistory(row, agent, session)) addRead(held, [{ ...row, rowid: outcome.rowid }]);
        // No allowed call of the session lies between `seen` and this row: the function looked under the lock.
        else held.rowid = Math.max(held.rowid, outcome.rowid);
        return record;
      }
      addRead(held, outcome.missed);
    }
    return inTransaction(this.pool, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [lock]);
      const history = await this.readHistory(client, agent, session);
      const record = decide(history);
      await insertDecisions(client, [record.row]);
      if (record.approval) await insertApproval(client, record.approval);
      return record;
    });
  }

  private enqueueSession(lock: string, agent: string, session: string, seen: number, row: DecisionRow): Promise<SessionOutcome> {
    return new Promise<SessionOutcome>((resolve, reject) => {
      this.sessionQueue.push({ lock, agent, session, seen, row, resolve, reject });
      if (this.sessionWriting === undefined) this.sessionImmediate ??= setImmediate(() => this.writeSessions());
    });
  }

  /** Writes the sessions' calls queued, one batch at a time; the calls queued meanwhile go after it. */
  private writeSessions(): void {
    this.sessionImmediate = undefined;
    if (this.sessionWriting !== undefined || this.sessionQueue.length === 0) return;
    const batch = this.sessionQueue.splice(0, MAX_BATCH);
    const write = this.writeSessionBatch(batch).catch((err: unknown) => {
      // A batch that failed is written call by call, so a row the table refuses fails only its own call.
      if (batch.length === 1) return batch[0]?.reject(err);
      return Promise.all(batch.map((q) => this.writeSessionBatch([q]).catch((e: unknown) => q.reject(e)))).then(() => undefined);
    });
    this.sessionWriting = write.finally(() => {
      this.sessionWriting = undefined;
      if (this.sessionQueue.length > 0) this.sessionImmediate ??= setImmediate(() => this.writeSessions());
    });
  }

  private async writeSessionBatch(batch: readonly SessionQueued[]): Promise<void> {
    const answers = await preparedRowsOf<SessionAnswer>(this.pool, RECORD_SESSION_CALLS_SQL, [
      batch.map((q) => q.lock),
      batch.map((q) => q.agent),
      batch.map((q) => q.session),
      batch.map((q) => q.seen),
      batch.map((q) => JSON.stringify(columnsOf(q.row))),
    ]);
    const missed: SessionRow[][] = batch.map(() => []);
    const written: (number | undefined)[] = batch.map(() => undefined);
    for (const a of answers) {
      const at = a.item - 1;
      if (a.written) written[at] = a.rowid;
      else missed[at]?.push(a);
    }
    batch.forEach((q, i) => {
      const rowid = written[i];
      q.resolve(rowid === undefined ? { written: false, missed: missed[i] ?? [] } : { written: true, rowid });
    });
  }

  /** Writes a held call at once, after the calls queued before it, with its approval request in one transaction. */
  private async recordHeld(row: DecisionRow, approval: ApprovalRow): Promise<void> {
    await this.flush().catch(() => {
      // Those calls' own callers are told their write failed; this one is written regardless.
    });
    await inTransaction(this.pool, async (client) => {
      await insertDecisions(client, [row]);
      await insertApproval(client, approval);
    });
  }

  private enqueue(row: DecisionRow): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ row, resolve, reject });
      // While a batch is being written, the calls arriving meanwhile wait for its commit and go together
      // after it; else they go at the end of this turn (a full batch goes at once, either way).
      if (this.writing.size === 0 || this.queue.length >= MAX_BATCH) this.immediate ??= setImmediate(() => this.writeQueued());
    });
  }

  /** Sends the queued rows as one batch; each caller hears when its batch has committed (or failed). */
  private writeQueued(): Promise<void> {
    if (this.immediate) clearImmediate(this.immediate);
    this.immediate = undefined;
    const done: Promise<void>[] = [];
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      const write = insertDecisions(
        this.pool,
        batch.map((q) => q.row),
      ).then(
        () => {
          this.failing = false;
          for (const q of batch) q.resolve();
        },
        (err: unknown) => {
          this.failing = true;
          return batch.length === 1 ? batch[0]?.reject(err) : this.writeEach(batch);
        },
      );
      this.writing.add(write);
      this.writingSince.set(write, { since: (batch[0] as Queued).row.created_at, rows: batch.length });
      void write.finally(() => {
        this.writing.delete(write);
        this.writingSince.delete(write);
        // The calls that waited for this batch go now.
        if (this.writing.size === 0 && this.queue.length > 0) this.immediate ??= setImmediate(() => this.writeQueued());
      });
      done.push(write);
    }
    return Promise.all(done).then(() => undefined);
  }

  /** A batch that failed is written row by row, so one row the table refuses (a call id twice) fails only its own call. */
  private async writeEach(batch: Queued[]): Promise<void> {
    await Promise.all(
      batch.map((q) =>
        insertDecisions(this.pool, [q.row]).then(
          () => q.resolve(),
          (err: unknown) => q.reject(err),
        ),
      ),
    );
  }

  /** Waits until every decision queued so far is written (or its write has failed, which its caller was told). */
  async flush(): Promise<void> {
    if (this.queue.length > 0) await this.writeQueued();
    if (this.writing.size > 0) await Promise.all([...this.writing]);
    // A session's call resolves only once written or refused; its batch is waited for, not forced.
    while (this.sessionWriting !== undefined || this.sessionQueue.length > 0) {
      if (this.sessionWriting === undefined) this.writeSessions();
      await this.sessionWriting;
    }
  }

  /** Writes what is queued; the pool is the caller's. */
  async close(): Promise<void> {
    await this.flush();
  }
}
