// Approval requests on PostgreSQL, as sqlite.ts keeps them in SQLite (model.ts defines them): deciding and
// claiming are one conditional UPDATE each, which PostgreSQL re-checks on the row it locks, so of racing callers on
// any number of nodes exactly one wins. The `rowid` column orders pages (keyset.ts) and never leaves this module.
import { type PageKey, pageOf } from '../keyset.ts';
import { counterStatement } from '../members/credential-model.ts';
import { type Queryable, rowsOf } from '../postgres-query.ts';
import type { Page } from '../state-store.ts';
import { POSTGRES_MARK } from '../statement.ts';
import {
  APPROVAL_COLUMNS,
  type ApprovalFilter,
  type ApprovalRow,
  approvalsQuery,
  type ClaimOutcome,
  type CounterMove,
  claimRefusal,
  type DecideOutcome,
  type DecisionWrite,
  decideRefusal,
  decideStatement,
  type PendingSummary,
  pendingSummaryQuery,
  type TransitionRow,
  transitionOf,
  transitionStatement,
  type VoteRow,
  voteEnds,
  voteStatement,
  votesQuery,
} from './model.ts';

const SELECTED = APPROVAL_COLUMNS.join(', ');

/** Writes a held call's request (in the transaction that writes its decision). */
export async function insertApproval(on: Queryable, row: ApprovalRow): Promise<void> {
  await rowsOf(
    on,
    `INSERT INTO approvals (${SELECTED}) VALUES (${APPROVAL_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})`,
    APPROVAL_COLUMNS.map((c) => row[c]),
  );
  await writeTransition(on, transitionOf(row, 'requested'));
}

export async function findApproval(on: Queryable, id: string): Promise<ApprovalRow | undefined> {
  const [row] = await rowsOf<ApprovalRow>(on, `SELECT ${SELECTED} FROM approvals WHERE id = $1`, [id]);
  return row;
}

/** Requests newest first, as sqlite.ts lists them. */
export async function listApprovals(
  on: Queryable,
  filter: ApprovalFilter,
  now: Date,
  limit: number,
  after?: PageKey,
): Promise<Page<ApprovalRow>> {
  const { sql, params } = approvalsQuery(`SELECT ${SELECTED}, rowid AS row_key`, filter, now, limit, after, POSTGRES_MARK);
  return pageOf(await rowsOf<ApprovalRow & { row_key: number }>(on, sql, params), limit);
}

/** The pending requests' count and the oldest's creation, as sqlite.ts reads them. */
export async function pendingSummary(on: Queryable, now: Date): Promise<PendingSummary> {
  const { sql, params } = pendingSummaryQuery(now, POSTGRES_MARK);
  const [row] = await rowsOf<{ count: string | number; oldest: string | null }>(on, sql, params);
  return { count: Number(row?.count ?? 0), oldestCreatedAt: row?.oldest ?? null };
}

/** Decides a pending, unexpired request once with `write`, as sqlite.ts does; `on` is the caller's transaction. */
export async function decideApproval(
  on: Queryable,
  id: string,
  write: DecisionWrite,
  now: Date,
  counter?: CounterMove,
): Promise<DecideOutcome> {
  const outcome = await decideOnce(on, id, write, now, counter);
  if (outcome.ok) await writeTransition(on, transitionOf(outcome.row, 'decided'));
  return outcome;
}

/** The transition a step made, written in the caller's transaction (model.ts, transitionStatement). */
async function writeTransition(on: Queryable, t: TransitionRow | undefined): Promise<void> {
  if (!t) return;
  const { sql, params } = transitionStatement(t, POSTGRES_MARK);
  await on.query(sql, params);
}

async function decideOnce(on: Queryable, id: string, write: DecisionWrite, now: Date, counter?: CounterMove): Promise<DecideOutcome> {
  if (counter) {
    const { sql, params } = counterStatement(counter.credential, counter.counter, POSTGRES_MARK);
    if ((await on.query(sql, params)).rowCount !== 1) return { ok: false, reason: 'counter_moved' };
  }
  // Locked, so racing votes on a quorum count one after another (the decide below re-checks it anyway).
  const [found] = await rowsOf<ApprovalRow>(on, `SELECT ${SELECTED} FROM approvals WHERE id = $1 FOR UPDATE`, [id]);
  if (found && found.quorum > 1) return vote(on, found, write, now);
  const { sql, params } = decideStatement(id, write, now, POSTGRES_MARK);
  const [won] = await rowsOf<ApprovalRow>(on, `${sql} RETURNING ${SELECTED}`, params);
  if (won) return { ok: true, row: won };
  return { ok: false, reason: decideRefusal(await findApproval(on, id)) };
}

/** A member's vote on a request that needs a quorum, as sqlite.ts counts it; the request's row is locked. */
async function vote(on: Queryable, row: ApprovalRow, write: DecisionWrite, now: Date): Promise<DecideOutcome> {
  if (row.status !== 'pending' || row.expires_at <= now.toISOString()) return { ok: false, reason: decideRefusal(row) };
  const inserted = voteStatement(row.id, write, POSTGRES_MARK);
  if ((await on.query(inserted.sql, inserted.params)).rowCount !== 1) return { ok: false, reason: 'already_voted' };
  const votes = await listVotes(on, row.id);
  const vote = votes.find((v) => v.member_id === write.decided_by) as VoteRow;
  if (voteEnds(write.status, votes.filter((v) => v.decision === 'approved').length, row.quorum)) {
    const { sql, params } = decideStatement(row.id, write, now, POSTGRES_MARK);
    await on.query(sql, params);
  }
  return { ok: true, row: (await findApproval(on, row.id)) as ApprovalRow, vote };
}

/** A request's votes, oldest first. */
export async function listVotes(on: Queryable, id: string): Promise<VoteRow[]> {
  const { sql, params } = votesQuery(id, POSTGRES_MARK);
  return rowsOf<VoteRow>(on, sql, params);
}

/** Claims an approved, unexpired request whose digest matches, exactly once. */
export async function claimApproval(on: Queryable, id: string, digest: string, now: Date): Promise<ClaimOutcome> {
  const at = now.toISOString();
  const [won] = await rowsOf<ApprovalRow>(
    on,
    `UPDATE approvals SET claimed_at = $1
     WHERE id = $2 AND status = 'approved' AND claimed_at IS NULL AND arguments_digest = $3 AND expires_at > $1 RETURNING ${SELECTED}`,
    [at, id, digest],
  );
  if (won) {
    await writeTransition(on, transitionOf(won, 'claimed'));
    return { ok: true, row: won };
  }
  return { ok: false, reason: claimRefusal(await findApproval(on, id), digest) };
}
