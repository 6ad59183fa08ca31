// Approval requests on PostgreSQL, as approvals.ts keeps them in SQLite: deciding and claiming are one
// conditional UPDATE each, which PostgreSQL re-checks on the row it locks, so of racing callers on any number of
// nodes exactly one wins. The `rowid` column orders pages (keyset.ts) and never leaves this module.
import { sign } from 'node:crypto';
import type { ApprovalFilter, ApprovalRow, ClaimOutcome, DecideOutcome } from './approvals.ts';
import { signedContentOf } from './approvals.ts';
import { type PageKey, pageOf } from './keyset.ts';
import type { MemberRow } from './members.ts';
import { type Queryable, rowsOf } from './postgres-query.ts';
import type { Page } from './state-store.ts';

export const APPROVAL_COLUMNS = [
  'id',
  'call_id',
  'agent',
  'tool',
  'arguments_digest',
  'policy_document',
  'policy_sequence',
  'rule',
  'description',
  'approvers',
  'status',
  'expires_at',
  'decided_by',
  'decided_at',
  'reason',
  'signature',
  'signed_content',
  'claimed_at',
  'created_at',
] as const satisfies readonly (keyof ApprovalRow)[];

const SELECTED = APPROVAL_COLUMNS.join(', ');

/** Writes a held call's request (in the transaction that writes its decision). */
export async function insertApproval(on: Queryable, row: ApprovalRow): Promise<void> {
  await rowsOf(
    on,
    `INSERT INTO approvals (${SELECTED}) VALUES (${APPROVAL_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})`,
    APPROVAL_COLUMNS.map((c) => row[c]),
  );
}

export async function findApproval(on: Queryable, id: string): Promise<ApprovalRow | undefined> {
  const [row] = await rowsOf<ApprovalRow>(on, `SELECT ${SELECTED} FROM approvals WHERE id = $1`, [id]);
  return row;
}

/** Requests newest first, as approvals.ts lists them. */
export async function listApprovals(
  on: Queryable,
  filter: ApprovalFilter,
  now: Date,
  limit: number,
  after?: PageKey,
): Promise<Page<ApprovalRow>> {
  const at = now.toISOString();
  const conditions: string[] = [];
  const values: (string | number)[] = [];
  const param = (value: string | number) => {
    values.push(value);
    return `$${values.length}`;
  };
  if (filter === 'pending') conditions.push(`(status = 'pending' AND expires_at > ${param(at)})`);
  else if (filter === 'expired') conditions.push(`(status = 'pending' AND expires_at <= ${param(at)})`);
  else if (filter === 'decided') conditions.push(`(status <> 'pending' OR expires_at <= ${param(at)})`);
  else if (filter !== undefined) conditions.push(`status = ${param(filter)}`);
  if (after !== undefined) conditions.push(`(created_at, rowid) < (${param(after.createdAt)}, ${param(after.rowid)})`);
  const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
  // One more than asked says whether more match (keyset.ts).
  const rows = await rowsOf<ApprovalRow & { row_key: number }>(
    on,
    `SELECT ${SELECTED}, rowid AS row_key FROM approvals ${where} ORDER BY created_at DESC, rowid DESC LIMIT ${param(limit + 1)}`,
    values,
  );
  return pageOf(rows, limit);
}

/** Decides a pending, unexpired request once, signed by the member; exactly one of racing deciders wins. */
export async function decideApproval(
  on: Queryable,
  id: string,
  member: MemberRow,
  decision: 'approved' | 'denied',
  reason: string | null,
  now: Date,
): Promise<DecideOutcome> {
  const row = await findApproval(on, id);
  if (!row) return { ok: false, reason: 'not_found' };
  const decidedAt = now.toISOString();
  const content = signedContentOf(row, decision, member.id, decidedAt);
  const signature = sign(null, Buffer.from(content, 'utf8'), member.private_key).toString('base64');
  const [won] = await rowsOf<ApprovalRow>(
    on,
    `UPDATE approvals SET status = $1, decided_by = $2, decided_at = $3, reason = $4, signature = $5, signed_content = $6
     WHERE id = $7 AND status = 'pending' AND expires_at > $3 RETURNING ${SELECTED}`,
    [decision, member.id, decidedAt, reason, signature, content, id],
  );
  if (won) return { ok: true, row: won };
  const after = (await findApproval(on, id)) as ApprovalRow;
  return { ok: false, reason: after.status !== 'pending' ? 'already_decided' : 'expired' };
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
  if (won) return { ok: true, row: won };
  const row = await findApproval(on, id);
  if (!row) return { ok: false, reason: 'not_found' };
  if (row.status !== 'approved') return { ok: false, reason: 'not_approved' };
  if (row.claimed_at !== null) return { ok: false, reason: 'already_claimed' };
  if (row.arguments_digest !== digest) return { ok: false, reason: 'arguments_mismatch' };
  return { ok: false, reason: 'expired' };
}
