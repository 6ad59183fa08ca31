// What the record keeps of each thing it chains (docs/audit.md, "What is chained"): one function a kind, from the row
// the change wrote. The same function states an entry when it is appended and again when an export reads the row
// back, so a row edited since no longer hashes to its entry. Bodies hold ids, digests, codes and the stored text of
// small JSON columns as written, never an argument value, a key or a secret. Pure.
import type { ApprovalRow, VoteRow } from '../state/approvals/model.ts';
import type { DecisionRow } from '../state/decisions/model.ts';
import type { AuthorizationRow } from '../state/tools/model.ts';
import type { JsonValue } from './chain.ts';

/** The kinds of entry, and the table each one's `ref` names a row of. */
export const ENTRY_SOURCES = {
  decision: 'decisions',
  'approval.requested': 'approvals',
  'approval.decided': 'approvals',
  'approval.claimed': 'approvals',
  'identity.changed': 'identity_changes',
} as const;

export type EntryKind = keyof typeof ENTRY_SOURCES;

/** A tool's binding authorized (its body is the record: authorizationBody). */
export const TOOL_AUTHORIZED = 'tool.authorized';

type Body = { [key: string]: JsonValue };

/** A gate decision: what was decided, by which rule and versions, of which arguments' digest; never the arguments. */
export function decisionBody(row: DecisionRow): Body {
  return {
    call_id: row.call_id,
    agent: row.agent,
    tool: row.tool,
    action: row.action,
    amount: row.amount,
    currency: row.currency,
    decision: row.decision,
    rule: row.rule,
    code: row.code,
    versions: row.versions,
    arguments_digest: row.arguments_digest,
    session: row.session,
    via: row.via ?? null,
    created_at: row.created_at,
  };
}

/**
 * decisionBody's canonical text (RFC 8785), written in one pass in its members' sorted order: the gate chains every
 * call, so this skips building and sorting the object (apps/api/test/record-canonical.property.test.ts checks it
 * against canonicalText(decisionBody(row))).
 */
export function decisionBodyText(row: DecisionRow): string {
  // Every member a string or null, every name a fixed ASCII word: JSON.stringify writes them in the order given,
  // which is RFC 8785's sorted order, escaping strings as RFC 8785 does. One native call.
  return JSON.stringify({
    action: row.action,
    agent: row.agent,
    amount: row.amount,
    arguments_digest: row.arguments_digest,
    call_id: row.call_id,
    code: row.code,
    created_at: row.created_at,
    currency: row.currency,
    decision: row.decision,
    rule: row.rule,
    session: row.session,
    tool: row.tool,
    versions: row.versions,
    via: row.via ?? null,
  });
}

/** A held call's approval request: what may be approved, under which policy version, by whom, until when. */
export function approvalRequestedBody(row: ApprovalRow): Body {
  return {
    id: row.id,
    call_id: row.call_id,
    agent: row.agent,
    tool: row.tool,
    arguments_digest: row.arguments_digest,
    policy_document: row.policy_document,
    policy_sequence: row.policy_sequence,
    rule: row.rule,
    approvers: row.approvers,
    expires_at: row.expires_at,
    created_at: row.created_at,
    // A quorum is stated where there is one, so requests made before quorums restate as they were.
    ...(row.quorum !== undefined && row.quorum > 1 ? { quorum: row.quorum } : {}),
  };
}

/** A member's decision of a request: what they signed, their signature and its proof, which verify checks with their key. */
export function approvalDecidedBody(row: ApprovalRow): Body {
  return {
    id: row.id,
    call_id: row.call_id,
    status: row.status,
    decided_by: row.decided_by,
    decided_at: row.decided_at,
    reason: row.reason,
    signed_content: row.signed_content,
    signature: row.signature,
    // A key the member holds states its proof; a custodial signature none, so entries made before proofs restate alike.
    ...(row.proof !== null && row.proof !== undefined ? { proof: row.proof } : {}),
  };
}

/**
 * A member's vote on a request that needs a quorum (`approval.voted`), signed on its own: stated as a decision is,
 * so verify checks it alike. Its body is the record (the votes table is not read back by an export).
 */
export function approvalVotedBody(row: ApprovalRow, vote: VoteRow): Body {
  return {
    id: row.id,
    call_id: row.call_id,
    status: vote.decision,
    decided_by: vote.member_id,
    decided_at: vote.decided_at,
    reason: vote.reason,
    signed_content: vote.signed_content,
    signature: vote.signature,
    ...(vote.proof !== null ? { proof: vote.proof } : {}),
  };
}

/** An approved call claimed by its agent. */
export function approvalClaimedBody(row: ApprovalRow): Body {
  return { id: row.id, call_id: row.call_id, claimed_at: row.claimed_at };
}

/**
 * A tool's binding authorized, with the upstream definition it pins (docs/catalogue.md). The authorizations table keeps
 * only the newest of each tool, so this body is the record of each one (it states no row an export reads back).
 */
export function authorizationBody(row: AuthorizationRow): Body {
  return {
    catalogue: row.catalogue,
    tool: row.tool,
    digest: row.digest,
    authorized_by: row.authorized_by,
    authorized_by_name: row.authorized_by_name,
    authorized_at: row.authorized_at,
    upstream_digest: row.upstream_digest,
  };
}

/** A row of the record of changes to members and keys (docs/security.md), its details as stored. */
export interface IdentityChangeRow {
  seq: number;
  at: string;
  actor: string;
  action: string;
  subject: string;
  details: string;
}

/** The row a change's statement wrote (members/changes.ts, statementOf: at, actor, action, subject, details), by its seq. */
export function identityChangeOf(seq: number, params: readonly unknown[]): IdentityChangeRow {
  const [at, actor, action, subject, details] = params as string[];
  return {
    seq,
    at: at as string,
    actor: actor as string,
    action: action as string,
    subject: subject as string,
    details: details as string,
  };
}

export function identityChangeBody(row: IdentityChangeRow): Body {
  return { seq: row.seq, at: row.at, actor: row.actor, action: row.action, subject: row.subject, details: row.details };
}

/** The sources an export reads entries' bodies from, by kind: undefined when the row is not there. */
export interface EntrySources {
  decision(callId: string): DecisionRow | undefined;
  approval(id: string): ApprovalRow | undefined;
  identityChange(seq: string): IdentityChangeRow | undefined;
}

/**
 * An entry's body as its row states it now, or null when the kind has no row (the stored body is the record) and
 * `{missing}` when the row it was made from is gone: an export restates every entry from what is there, so a row
 * changed or deleted since is an entry that no longer hashes.
 */
export function bodyFromSource(kind: string, ref: string | null, sources: EntrySources): Body | null {
  if (ref === null || !(kind in ENTRY_SOURCES)) return null;
  const missing = { missing: ENTRY_SOURCES[kind as EntryKind], ref };
  switch (kind as EntryKind) {
    case 'decision': {
      const row = sources.decision(ref);
      return row ? decisionBody(row) : missing;
    }
    case 'approval.requested':
    case 'approval.decided':
    case 'approval.claimed': {
      const row = sources.approval(ref);
      if (!row) return missing;
      if (kind === 'approval.requested') return approvalRequestedBody(row);
      return kind === 'approval.decided' ? approvalDecidedBody(row) : approvalClaimedBody(row);
    }
    case 'identity.changed': {
      const row = sources.identityChange(ref);
      return row ? identityChangeBody(row) : missing;
    }
  }
}

/**
 * The entries a decision of a request chains, in order: the member's vote when the request needs a quorum, then the
 * request decided once it is (a vote short of the quorum leaves it pending).
 */
export function chainDecision(
  outcome: { row: ApprovalRow; vote?: VoteRow },
  add: (kind: string, at: string, ref: string | null, body: Body) => unknown,
): void {
  const { row, vote } = outcome;
  if (vote) add('approval.voted', vote.decided_at, row.id, approvalVotedBody(row, vote));
  if (row.status !== 'pending') add('approval.decided', row.decided_at as string, row.id, approvalDecidedBody(row));
}
