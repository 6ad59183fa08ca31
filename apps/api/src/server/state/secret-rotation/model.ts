// Rotating the member key secret (docs/approver-keys.md, "The custodial keys at rest"): every custodial key and every
// webhook signing secret opened with the current secret and sealed again with the new one, planned here once for both
// dialects (sqlite.ts, postgres.ts run it in one transaction). Pure but for the crypto of the two sealing modules.
import { type CustodialKeys, SecretMismatchError } from '../members/custodial-keys.ts';
import type { NodeView } from '../nodes/model.ts';
import type { Placeholder, Statement } from '../statement.ts';
import { openWebhookSecret, sealWebhookSecret } from '../webhooks/sealed-secret.ts';

/** One row's stored text as read (`was`, for the conditional write) and as it is to be (`now`). */
export interface Resealed {
  id: string;
  was: string;
  now: string;
}

export interface Resealing {
  keys: Resealed[];
  secrets: Resealed[];
}

/** What the command reports: how many of each were sealed anew. */
export interface RotationCounts {
  keys: number;
  webhook_secrets: number;
}

/** Why nothing was written: a row changed between its reading and the write, or one was added meanwhile. */
export class RotationConflictError extends Error {
  readonly code = 'ROTATION_CONFLICT';
}

/**
 * Why nothing was written: a node is live in the registry (state/nodes/), holding a key derived from the current
 * secret, so after the rotation it could open nothing sealed anew.
 */
export class NodesRunningError extends Error {
  readonly code = 'NODES_RUNNING';
  constructor(readonly nodes: readonly NodeView[]) {
    super(
      `${nodes.length === 1 ? 'a node is' : `${nodes.length} nodes are`} running on this store (${nodes
        .map((n) => `${n.id}, ${n.version}, last seen ${n.last_seen}`)
        .join('; ')}): stop ${nodes.length === 1 ? 'it' : 'them'} first, as each holds a key of the current secret`,
    );
  }
}

/** Throws NodesRunningError when a node of `nodes` is live. */
export function requireNoLiveNode(nodes: readonly NodeView[]): void {
  const live = nodes.filter((n) => n.live);
  if (live.length > 0) throw new NodesRunningError(live);
}

/** The members' stored keys and the subscriptions' stored secrets, removed ones included (each is sealed alike). */
export const MEMBER_KEYS = 'SELECT id, private_key FROM members ORDER BY id';
export { STORED_SECRETS } from '../webhooks/model.ts';

/**
 * Every row opened with `from` and sealed with `to`; a plain one an earlier version left is sealed with `to`. Throws
 * SecretMismatchError, naming the row, when `from` does not open one: the caller then writes nothing.
 *
 * @example
 * resealingOf(memberRows, subscriptionRows, current, next) // { keys: [{ id, was, now }], secrets: [...] }
 */
export function resealingOf(
  members: readonly { id: string; private_key: string }[],
  subscriptions: readonly { id: string; secret: string }[],
  from: CustodialKeys,
  to: CustodialKeys,
): Resealing {
  const keys = members.map((m) => ({ id: m.id, was: m.private_key, now: to.seal(openKey(m, from)) }));
  const secrets = subscriptions.map((s) => ({ id: s.id, was: s.secret, now: sealWebhookSecret(openSecret(s, from), to, s.id) }));
  return { keys, secrets };
}

function openKey(row: { id: string; private_key: string }, from: CustodialKeys) {
  try {
    return from.open(row.private_key);
  } catch {
    // A text that is neither a plain key nor one this secret opens: nothing sealed with the new secret could stand for it.
    throw new SecretMismatchError(`the member key secret does not open member ${row.id}’s stored signing key`);
  }
}

function openSecret(row: { id: string; secret: string }, from: CustodialKeys): string {
  try {
    return openWebhookSecret(row.secret, from, row.id);
  } catch {
    throw new SecretMismatchError(`the member key secret does not open webhook ${row.id}’s stored signing secret`);
  }
}

/** The counts a finished rotation reports. */
export function countsOf(plan: Resealing): RotationCounts {
  return { keys: plan.keys.length, webhook_secrets: plan.secrets.length };
}

/**
 * The conditional writes of a plan: each row only where it still holds what was read, so a row changed meanwhile
 * (a key made, a secret rotated by a running node) changes nothing and the caller rolls every write back.
 */
export function resealStatements(plan: Resealing, mark: Placeholder): Statement[] {
  return [
    ...plan.keys.map((k) => ({
      sql: `UPDATE members SET private_key = ${mark(1)} WHERE id = ${mark(2)} AND private_key = ${mark(3)}`,
      params: [k.now, k.id, k.was],
    })),
    ...plan.secrets.map((s) => ({
      sql: `UPDATE webhook_subscriptions SET secret = ${mark(1)} WHERE id = ${mark(2)} AND secret = ${mark(3)}`,
      params: [s.now, s.id, s.was],
    })),
  ];
}

/** How many rows each table holds now: a row added after the reading would be left sealed with the old secret. */
export const ROW_COUNTS = 'SELECT (SELECT COUNT(*) FROM members) AS keys, (SELECT COUNT(*) FROM webhook_subscriptions) AS secrets';

/** Throws RotationConflictError unless the tables hold exactly the rows the plan was made of. */
export function requireSameRows(plan: Resealing, counts: { keys: number | string; secrets: number | string }): void {
  if (Number(counts.keys) !== plan.keys.length || Number(counts.secrets) !== plan.secrets.length) {
    throw new RotationConflictError('a member or webhook was added while the secret was being rotated; run it again');
  }
}

/** Throws RotationConflictError unless a conditional write changed its one row. */
export function requireWritten(changes: number, statement: Statement): void {
  if (changes !== 1) {
    const what = statement.sql.startsWith('UPDATE members') ? 'member' : 'webhook';
    throw new RotationConflictError(`${what} ${statement.params[1]} changed while the secret was being rotated; run it again`);
  }
}
