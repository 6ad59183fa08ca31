// Approval requests as both state stores keep them (docs/api.md, "Approvals"): a held call's request bound to its
// arguments' digest and the policy version, decided once by an eligible member and claimed once by the agent. Each
// store makes every transition one conditional UPDATE, so of racing deciders or claimers exactly one wins; what
// they share is here, pure: a request's status, which requests a list holds, what a decider signs
// (signed-decision.ts signs it) and why a transition that did not win is refused.
import { canonicalJson } from '@tollgate/engine';
import type { PageKey } from '../keyset.ts';
import type { Placeholder, Statement } from '../statement.ts';

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
  /**
   * JSON: how a member-held key signed the decision (docs/approver-keys.md): `{kind: 'device', credential_id}` or a
   * passkey's `{kind: 'passkey', credential_id, authenticator_data, client_data_json, signature}`; null when the
   * server signed with the member's custodial key, or undecided.
   */
  proof: string | null;
  /** How many distinct approvals the request needs (the rule's approvers.quorum; 1 by default). */
  quorum: number;
}

/** The approvals table's columns, in its order. */
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
  'proof',
  'quorum',
] as const satisfies readonly (keyof ApprovalRow)[];

/** A member's vote on a request that needs a quorum, signed on its own (approval_votes). */
export interface VoteRow {
  approval_id: string;
  member_id: string;
  decision: 'approved' | 'denied';
  decided_at: string;
  reason: string | null;
  signature: string;
  signed_content: string;
  proof: string | null;
}

export const VOTE_COLUMNS = [
  'approval_id',
  'member_id',
  'decision',
  'decided_at',
  'reason',
  'signature',
  'signed_content',
  'proof',
] as const satisfies readonly (keyof VoteRow)[];

/** The vote `write` makes on request `id`, inserted once: a member's second vote changes nothing. */
export function voteStatement(id: string, write: DecisionWrite, mark: Placeholder): Statement {
  const row: VoteRow = {
    approval_id: id,
    member_id: write.decided_by,
    decision: write.status,
    decided_at: write.decided_at,
    reason: write.reason,
    signature: write.signature,
    signed_content: write.signed_content,
    proof: write.proof,
  };
  return {
    sql: `INSERT INTO approval_votes (${VOTE_COLUMNS.join(', ')}) VALUES (${VOTE_COLUMNS.map((_, i) => mark(i + 1)).join(', ')})
     ON CONFLICT (approval_id, member_id) DO NOTHING`,
    params: VOTE_COLUMNS.map((c) => row[c]),
  };
}

/** The request's votes, oldest first. */
export function votesQuery(id: string, mark: Placeholder): Statement {
  return {
    sql: `SELECT ${VOTE_COLUMNS.join(', ')} FROM approval_votes WHERE approval_id = ${mark(1)} ORDER BY decided_at, member_id`,
    params: [id],
  };
}

/** Whether a vote ends the request: a denial does, and the approval that reaches the quorum. */
export function voteEnds(decision: 'approved' | 'denied', approvals: number, quorum: number): boolean {
  return decision === 'denied' || approvals >= quorum;
}

export type ApprovalStatus = 'pending' | 'approved' | 'denied' | 'expired';

/** A pending request past its expiry reads as expired. */
export function statusOf(row: ApprovalRow, now: Date): ApprovalStatus {
  return row.status === 'pending' && row.expires_at <= now.toISOString() ? 'expired' : row.status;
}

/** Which requests a list holds: one status, every decided one (approved, denied, expired), or all. */
export type ApprovalFilter = ApprovalStatus | 'decided' | undefined;

/**
 * The statement listing requests newest first, at most `limit` of them after the page key `after` (keyset.ts),
 * reading one more than asked so the page can say whether more match; `select` names `rowid AS row_key`. The
 * filter's conditions are statusOf's, read in SQL.
 *
 * @example
 * approvalsQuery('SELECT *, rowid AS row_key', 'pending', now, 50, undefined, () => '?')
 */
export function approvalsQuery(
  select: string,
  filter: ApprovalFilter,
  now: Date,
  limit: number,
  after: PageKey | undefined,
  mark: Placeholder,
): Statement {
  const params: (string | number)[] = [];
  const param = (value: string | number) => {
    params.push(value);
    return mark(params.length);
  };
  const at = now.toISOString();
  const where: string[] = [];
  if (filter === 'pending') where.push(`(status = 'pending' AND expires_at > ${param(at)})`);
  else if (filter === 'expired') where.push(`(status = 'pending' AND expires_at <= ${param(at)})`);
  else if (filter === 'decided') where.push(`(status <> 'pending' OR expires_at <= ${param(at)})`);
  else if (filter !== undefined) where.push(`status = ${param(filter)}`);
  // A row value, which SQLite reads through the index (keyset.ts).
  if (after !== undefined) where.push(`(created_at, rowid) < (${param(after.createdAt)}, ${param(after.rowid)})`);
  const sql = `${select} FROM approvals ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC, rowid DESC LIMIT ${param(limit + 1)}`;
  return { sql, params };
}

/** How many requests wait for a person, and when the oldest of them was made (a metric read at scrape). */
export interface PendingSummary {
  count: number;
  oldestCreatedAt: string | null;
}

/** The statement counting the pending, unexpired requests (statusOf's `pending`) and the oldest's creation. */
export function pendingSummaryQuery(now: Date, mark: Placeholder): Statement {
  return {
    sql: `SELECT COUNT(*) AS count, MIN(created_at) AS oldest FROM approvals WHERE status = 'pending' AND expires_at > ${mark(1)}`,
    params: [now.toISOString()],
  };
}

/**
 * What an approving member signs: the request's content with the decision and the digest of the text of the policy
 * version that held it, as canonical JSON (docs/approver-keys.md, "What is signed"). `policyDigest` is absent only
 * where no text can be read (a version since removed): the content then omits it.
 */
export function signedContentOf(
  row: ApprovalRow,
  decision: 'approved' | 'denied',
  decidedBy: string,
  decidedAt: string,
  policyDigest?: string,
): string {
  return canonicalJson({
    id: row.id,
    call_id: row.call_id,
    agent: row.agent,
    tool: row.tool,
    arguments_digest: row.arguments_digest,
    policy_document: row.policy_document,
    policy_sequence: row.policy_sequence,
    ...(policyDigest !== undefined ? { policy_digest: policyDigest } : {}),
    rule: row.rule,
    decision,
    decided_by: decidedBy,
    decided_at: decidedAt,
  });
}

/** The columns a decision sets on its request. */
export interface DecisionWrite {
  status: 'approved' | 'denied';
  decided_by: string;
  decided_at: string;
  reason: string | null;
  signature: string;
  signed_content: string;
  proof: string | null;
}

/** A passkey's counter moved forward with the decision it signed (members/credential-model.ts, counterStatement). */
export interface CounterMove {
  credential: string;
  counter: number;
}

/** The conditional UPDATE that decides a pending, unexpired request (racing deciders: exactly one changes a row). */
export function decideStatement(id: string, write: DecisionWrite, now: Date, mark: Placeholder): Statement {
  return {
    sql: `UPDATE approvals SET status = ${mark(1)}, decided_by = ${mark(2)}, decided_at = ${mark(3)}, reason = ${mark(4)}, signature = ${mark(5)},
       signed_content = ${mark(6)}, proof = ${mark(7)}
     WHERE id = ${mark(8)} AND status = 'pending' AND expires_at > ${mark(9)}`,
    params: [
      write.status,
      write.decided_by,
      write.decided_at,
      write.reason,
      write.signature,
      write.signed_content,
      write.proof,
      id,
      now.toISOString(),
    ],
  };
}

/**
 * `counter_moved`: the passkey was revoked meanwhile, or its counter moved past the assertion's (credential-model.ts);
 * `already_voted`: the member voted on this request already (a quorum counts each member once).
 */
export type DecideRefusal = 'not_found' | 'already_decided' | 'expired' | 'counter_moved' | 'already_voted';
/** A decision written: the request as it stands after it, and the vote it was when the request needs a quorum. */
export type DecideOutcome = { ok: true; row: ApprovalRow; vote?: VoteRow } | { ok: false; reason: DecideRefusal };

/**
 * Why a decision is refused when the request is missing or the conditional UPDATE (pending and unexpired) did not
 * let it through: `row` as read after it. What is left once a request is still pending is its expiry.
 */
export function decideRefusal(row: ApprovalRow | undefined): DecideRefusal {
  if (!row) return 'not_found';
  return row.status !== 'pending' ? 'already_decided' : 'expired';
}

/** `unsigned`: the approval's signature does not hold with its approver's key (approvals/approval-signature.ts). */
export type ClaimRefusal = 'not_found' | 'not_approved' | 'already_claimed' | 'arguments_mismatch' | 'expired' | 'unsigned';
export type ClaimOutcome = { ok: true; row: ApprovalRow } | { ok: false; reason: ClaimRefusal };

/**
 * Why a claim with `digest` is refused when the conditional UPDATE (approved, unclaimed, the same digest,
 * unexpired) did not let it through: `row` as read after it, the first condition it fails named. What is left
 * once the others hold is its expiry.
 */
export function claimRefusal(row: ApprovalRow | undefined, digest: string): ClaimRefusal {
  if (!row) return 'not_found';
  if (row.status !== 'approved') return 'not_approved';
  if (row.claimed_at !== null) return 'already_claimed';
  if (row.arguments_digest !== digest) return 'arguments_mismatch';
  return 'expired';
}

/** A request's transition as the webhook outbox hears it (webhooks/outbox.ts): made, decided or claimed. */
export interface TransitionRow {
  /** `<request id>:<status>`, the outbox's event key: each transition is written once. */
  event_key: string;
  approval_id: string;
  status: 'pending' | 'approved' | 'denied' | 'claimed';
  at: string;
}

/** The transition a request's row shows once a step committed it: made (pending), decided, or claimed. */
export function transitionOf(row: ApprovalRow, step: 'requested' | 'decided' | 'claimed'): TransitionRow | undefined {
  if (step === 'requested') return { event_key: `${row.id}:pending`, approval_id: row.id, status: 'pending', at: row.created_at };
  if (step === 'claimed' && row.claimed_at !== null) {
    return { event_key: `${row.id}:claimed`, approval_id: row.id, status: 'claimed', at: row.claimed_at };
  }
  // A vote that leaves the request pending is no transition.
  if (step === 'decided' && (row.status === 'approved' || row.status === 'denied') && row.decided_at !== null) {
    return { event_key: `${row.id}:${row.status}`, approval_id: row.id, status: row.status, at: row.decided_at };
  }
  return undefined;
}

/**
 * Writes a transition in the transaction that makes it (docs/webhooks.md, "The outbox"): what commits is heard,
 * however the process fares after the commit; the fan-out turns it into outbox rows and deletes it.
 */
export function transitionStatement(t: TransitionRow, mark: Placeholder): Statement {
  return {
    sql: `INSERT INTO approval_transitions (event_key, approval_id, status, at) VALUES (${mark(1)}, ${mark(2)}, ${mark(3)}, ${mark(4)})
          ON CONFLICT (event_key) DO NOTHING`,
    params: [t.event_key, t.approval_id, t.status, t.at],
  };
}
