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
} from './model.ts';

/** Writes a held call's request (in the transaction that writes its decision). */
export function insertApproval(db: Db, row: ApprovalRow): void {
  db.prepare(
    `INSERT INTO approvals (id, call_id, agent, tool, arguments_digest, policy_document, policy_sequence, rule, description, approvers, status,
       expires_at, decided_by, decided_at, reason, signature, signed_content, claimed_at, created_at, proof)
     VALUES (@id, @call_id, @agent, @tool, @arguments_digest, @policy_document, @policy_sequence, @rule, @description, @approvers, @status,
       @expires_at, @decided_by, @decided_at, @reason, @signature, @signed_content, @claimed_at, @created_at, @proof)`,
  ).run({ ...row, proof: row.proof ?? null });
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
  if (counter) {
    const { sql, params } = counterStatement(counter.credential, counter.counter, SQLITE_MARK);
    if (db.prepare(sql).run(...params).changes !== 1) return { ok: false, reason: 'counter_moved' };
  }
  const { sql, params } = decideStatement(id, write, now, SQLITE_MARK);
  if (db.prepare(sql).run(...params).changes === 1) return { ok: true, row: findApproval(db, id) as ApprovalRow };
  return { ok: false, reason: decideRefusal(findApproval(db, id)) };
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
  if (changes === 1 && row) return { ok: true, row };
  return { ok: false, reason: claimRefusal(row, digest) };
}
