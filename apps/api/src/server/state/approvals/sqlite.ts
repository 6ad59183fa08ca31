// Approval requests in SQLite, as model.ts defines them: every transition is a single conditional UPDATE, so two
// racing requests cannot both win, and a refusal is named by the model from the row read after it.
import type { Db } from '../db.ts';
import { type PageKey, pageOf } from '../keyset.ts';
import { counterStatement } from '../members/credential-model.ts';
import type { Page } from '../state-store.ts';
import { SQLITE_MARK } from '../statement.ts';
import {
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

/** Writes a held call's request (in the transaction that writes its decision). */
export function insertApproval(db: Db, row: ApprovalRow): void {
  db.prepare(
    `INSERT INTO approvals (id, call_id, agent, tool, arguments_digest, policy_document, policy_sequence, rule, description, approvers, status,
       expires_at, decided_by, decided_at, reason, signature, signed_content, claimed_at, created_at, proof, quorum)
     VALUES (@id, @call_id, @agent, @tool, @arguments_digest, @policy_document, @policy_sequence, @rule, @description, @approvers, @status,
       @expires_at, @decided_by, @decided_at, @reason, @signature, @signed_content, @claimed_at, @created_at, @proof, @quorum)`,
  ).run({ ...row, proof: row.proof ?? null, quorum: row.quorum ?? 1 });
  writeTransition(db, transitionOf(row, 'requested'));
}

/** The transition a step made, written in the caller's transaction (model.ts, transitionStatement). */
function writeTransition(db: Db, t: TransitionRow | undefined): void {
  if (!t) return;
  const { sql, params } = transitionStatement(t, SQLITE_MARK);
  db.prepare(sql).run(...params);
}

export function findApproval(db: Db, id: string): ApprovalRow | undefined {
  return db.prepare('SELECT * FROM approvals WHERE id = ?').get(id) as ApprovalRow | undefined;
}

/**
 * Requests newest first, at most `limit` of them (the list of an old workspace holds every held call ever
 * made), with whether more match and the cursor of the next page (keyset.ts).
 */
export function listApprovals(db: Db, filter: ApprovalFilter, now: Date, limit: number, after?: PageKey): Page<ApprovalRow> {
  const { sql, params } = approvalsQuery('SELECT *, rowid AS row_key', filter, now, limit, after, SQLITE_MARK);
  return pageOf(db.prepare(sql).all(...params) as (ApprovalRow & { row_key: number })[], limit);
}

/** The pending requests' count and the oldest's creation (model.ts, pendingSummaryQuery). */
export function pendingSummary(db: Db, now: Date): PendingSummary {
  const { sql, params } = pendingSummaryQuery(now, SQLITE_MARK);
  const row = db.prepare(sql).get(...params) as { count: number; oldest: string | null };
  return { count: Number(row.count), oldestCreatedAt: row.oldest };
}

/**
 * Decides a pending, unexpired request once with `write` (signed already); exactly one of racing deciders wins. A
 * passkey's counter moves in the same transaction (the caller's), or nothing is written.
 */
export function decideApproval(db: Db, id: string, write: DecisionWrite, now: Date, counter?: CounterMove): DecideOutcome {
  const outcome = decideOnce(db, id, write, now, counter);
  if (outcome.ok) writeTransition(db, transitionOf(outcome.row, 'decided'));
  return outcome;
}

function decideOnce(db: Db, id: string, write: DecisionWrite, now: Date, counter?: CounterMove): DecideOutcome {
  if (counter) {
    const { sql, params } = counterStatement(counter.credential, counter.counter, SQLITE_MARK);
    if (db.prepare(sql).run(...params).changes !== 1) return { ok: false, reason: 'counter_moved' };
  }
  const found = findApproval(db, id);
  if (found && found.quorum > 1) return vote(db, found, write, now);
  const { sql, params } = decideStatement(id, write, now, SQLITE_MARK);
  if (db.prepare(sql).run(...params).changes === 1) return { ok: true, row: findApproval(db, id) as ApprovalRow };
  return { ok: false, reason: decideRefusal(findApproval(db, id)) };
}

/**
 * A member's vote on a request that needs a quorum (in the caller's transaction): counted once, and the request decided
 * by the denial or the approval that reaches the quorum (model.ts, voteEnds).
 */
function vote(db: Db, row: ApprovalRow, write: DecisionWrite, now: Date): DecideOutcome {
  if (row.status !== 'pending' || row.expires_at <= now.toISOString()) return { ok: false, reason: decideRefusal(row) };
  const inserted = voteStatement(row.id, write, SQLITE_MARK);
  if (db.prepare(inserted.sql).run(...inserted.params).changes !== 1) return { ok: false, reason: 'already_voted' };
  const votes = listVotes(db, row.id);
  const vote = votes.find((v) => v.member_id === write.decided_by) as VoteRow;
  if (voteEnds(write.status, votes.filter((v) => v.decision === 'approved').length, row.quorum)) {
    const { sql, params } = decideStatement(row.id, write, now, SQLITE_MARK);
    db.prepare(sql).run(...params);
  }
  return { ok: true, row: findApproval(db, row.id) as ApprovalRow, vote };
}

/** A request's votes, oldest first. */
export function listVotes(db: Db, id: string): VoteRow[] {
  const { sql, params } = votesQuery(id, SQLITE_MARK);
  return db.prepare(sql).all(...params) as VoteRow[];
}

/** Claims an approved, unexpired request whose digest matches, exactly once. */
export function claimApproval(db: Db, id: string, digest: string, now: Date): ClaimOutcome {
  const at = now.toISOString();
  const changes = db
    .prepare(
      `UPDATE approvals SET claimed_at = ?
       WHERE id = ? AND status = 'approved' AND claimed_at IS NULL AND arguments_digest = ? AND expires_at > ?`,
    )
    .run(at, id, digest, at).changes;
  const row = findApproval(db, id);
  if (changes === 1 && row) {
    writeTransition(db, transitionOf(row, 'claimed'));
    return { ok: true, row };
  }
  return { ok: false, reason: claimRefusal(row, digest) };
}
