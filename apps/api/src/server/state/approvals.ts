// Approval requests: a held call's request bound to its arguments' digest and the policy version, decided
// once by an eligible member (signed with their Ed25519 identity) and claimed once by the agent. Every
// transition is a single conditional UPDATE, so two racing requests cannot both win.
import { sign } from 'node:crypto';
import { canonicalJson } from '@tollgate/engine';
import type { Db } from './db.ts';
import { AFTER_KEY_SQL, type PageKey, pageOf } from './keyset.ts';
import type { MemberRow } from './members.ts';

export interface ApprovalRow {
  id: string;
  call_id: string;
  agent: string;
  tool: string;
  arguments_digest: string;
  policy_document: string;
  policy_sequence: number;
  rule: string | null;
  description: string | null;
  /** JSON: the eligible members' ids. */
  approvers: string;
  status: 'pending' | 'approved' | 'denied';
  expires_at: string;
  decided_by: string | null;
  decided_at: string | null;
  reason: string | null;
  signature: string | null;
  signed_content: string | null;
  claimed_at: string | null;
  created_at: string;
}

export type ApprovalStatus = 'pending' | 'approved' | 'denied' | 'expired';

export function insertApproval(db: Db, row: ApprovalRow): void {
  db.prepare(
    `INSERT INTO approvals (id, call_id, agent, tool, arguments_digest, policy_document, policy_sequence, rule, description, approvers, status,
       expires_at, decided_by, decided_at, reason, signature, signed_content, claimed_at, created_at)
     VALUES (@id, @call_id, @agent, @tool, @arguments_digest, @policy_document, @policy_sequence, @rule, @description, @approvers, @status,
       @expires_at, @decided_by, @decided_at, @reason, @signature, @signed_content, @claimed_at, @created_at)`,
  ).run(row);
}

export function findApproval(db: Db, id: string): ApprovalRow | undefined {
  return db.prepare('SELECT * FROM approvals WHERE id = ?').get(id) as ApprovalRow | undefined;
}

/** A pending request past its expiry reads as expired. */
export function statusOf(row: ApprovalRow, now: Date): ApprovalStatus {
  return row.status === 'pending' && row.expires_at <= now.toISOString() ? 'expired' : row.status;
}

/** Which requests a list holds: one status, every decided one (approved, denied, expired), or all. */
export type ApprovalFilter = ApprovalStatus | 'decided' | undefined;

/**
 * Requests newest first, at most `limit` of them (the list of an old workspace holds every held call ever
 * made), with whether more match and the cursor of the next page (keyset.ts).
 */
export function listApprovals(
  db: Db,
  filter: ApprovalFilter,
  now: Date,
  limit: number,
  after?: PageKey,
): { rows: ApprovalRow[]; more: boolean; next: string | null } {
  const at = now.toISOString();
  const [where, params]: [string, string[]] =
    filter === undefined
      ? ['', []]
      : filter === 'pending'
        ? ["WHERE status = 'pending' AND expires_at > ?", [at]]
        : filter === 'expired'
          ? ["WHERE status = 'pending' AND expires_at <= ?", [at]]
          : filter === 'decided'
            ? ["WHERE status <> 'pending' OR expires_at <= ?", [at]]
            : ['WHERE status = ?', [filter]];
  const conditions = where === '' ? [] : [`(${where.slice('WHERE '.length)})`];
  const values: (string | number)[] = [...params];
  if (after !== undefined) {
    conditions.push(AFTER_KEY_SQL);
    values.push(after.createdAt, after.rowid);
  }
  const sql = `SELECT *, rowid AS row_key FROM approvals ${conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : ''}`;
  // One more than asked says whether more match (keyset.ts).
  const rows = db.prepare(`${sql} ORDER BY created_at DESC, rowid DESC LIMIT ?`).all(...values, limit + 1);
  return pageOf(rows as (ApprovalRow & { row_key: number })[], limit);
}

/** What an approving member signs: the request's content with the decision, as canonical JSON. */
export function signedContentOf(row: ApprovalRow, decision: 'approved' | 'denied', decidedBy: string, decidedAt: string): string {
  return canonicalJson({
    id: row.id,
    call_id: row.call_id,
    agent: row.agent,
    tool: row.tool,
    arguments_digest: row.arguments_digest,
    policy_document: row.policy_document,
    policy_sequence: row.policy_sequence,
    rule: row.rule,
    decision,
    decided_by: decidedBy,
    decided_at: decidedAt,
  });
}

export type DecideOutcome = { ok: true; row: ApprovalRow } | { ok: false; reason: 'not_found' | 'already_decided' | 'expired' };

/** Decides a pending, unexpired request once, signed by the member; exactly one of racing deciders wins. */
export function decideApproval(
  db: Db,
  id: string,
  member: MemberRow,
  decision: 'approved' | 'denied',
  reason: string | null,
  now: Date,
): DecideOutcome {
  const row = findApproval(db, id);
  if (!row) return { ok: false, reason: 'not_found' };
  const decidedAt = now.toISOString();
  const content = signedContentOf(row, decision, member.id, decidedAt);
  const signature = sign(null, Buffer.from(content, 'utf8'), member.private_key).toString('base64');
  const changes = db
    .prepare(
      `UPDATE approvals SET status = ?, decided_by = ?, decided_at = ?, reason = ?, signature = ?, signed_content = ?
       WHERE id = ? AND status = 'pending' AND expires_at > ?`,
    )
    .run(decision, member.id, decidedAt, reason, signature, content, id, decidedAt).changes;
  if (changes === 1) return { ok: true, row: findApproval(db, id) as ApprovalRow };
  const now2 = findApproval(db, id) as ApprovalRow;
  return { ok: false, reason: now2.status !== 'pending' ? 'already_decided' : 'expired' };
}

export type ClaimOutcome =
  | { ok: true; row: ApprovalRow }
  | { ok: false; reason: 'not_found' | 'not_approved' | 'already_claimed' | 'arguments_mismatch' | 'expired' };

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
  if (!row) return { ok: false, reason: 'not_found' };
  if (changes === 1) return { ok: true, row };
  if (row.status !== 'approved') return { ok: false, reason: 'not_approved' };
  if (row.claimed_at !== null) return { ok: false, reason: 'already_claimed' };
  if (row.arguments_digest !== digest) return { ok: false, reason: 'arguments_mismatch' };
  return { ok: false, reason: 'expired' };
}
