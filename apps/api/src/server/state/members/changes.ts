// Changes to members and keys as plans: each store reads what a change needs inside its transaction (the target,
// the owners left, the key), this module judges it by the rules (lifecycle.ts) and answers the writes as data,
// and the store runs each write as SQL (sqlite.ts, postgres.ts). So both stores refuse and write alike, and every
// change carries its record (who, what, when) in the same transaction.

import type { Placeholder, Statement } from '../statement.ts';
import { readStoredJson } from '../stored-json.ts';
import { CREDENTIAL_COLUMNS, type CredentialRow } from './credential-model.ts';
import {
  type Actor,
  actorLabel,
  holderLabel,
  type IdentityChange,
  type KeyHolder,
  type KeyInfo,
  type Refusal,
  refuseKeyChange,
  refuseNewKey,
  refuseNewMember,
  refuseRemoval,
  refuseRoleChange,
  refuseRotation,
  rotatedExpiry,
} from './lifecycle.ts';
import { type Grant, type MemberRow, type Role, regrant } from './model.ts';

/** A new key's stored parts (credentials.ts makes them): its id, its hash and its last four characters. */
export interface FreshKey {
  id: string;
  hash: string;
  hint: string;
}

/** An api_keys row as a plan inserts it. */
export interface NewKeyRow {
  id: string;
  hash: string;
  hint: string;
  name: string | null;
  member_id: string | null;
  agent: string | null;
  grants: string;
  created_at: string;
  created_by: string;
  expires_at: string | null;
}

/** One write of a plan; each store runs each kind as one statement. */
export type Write =
  | { kind: 'insert_member'; row: MemberRow }
  | { kind: 'restore_member'; id: string; role: Role }
  | { kind: 'set_role'; id: string; role: Role }
  | { kind: 'set_key_grants'; id: string; grants: string }
  | { kind: 'remove_member'; id: string; at: string }
  | { kind: 'revoke_member_keys'; memberId: string; at: string; by: string }
  | { kind: 'insert_key'; row: NewKeyRow }
  | { kind: 'retire_key'; id: string; expires_at: string; rotated_to: string }
  | { kind: 'revoke_key'; id: string; at: string; by: string }
  | { kind: 'insert_credential'; row: CredentialRow }
  | { kind: 'revoke_credential'; id: string; at: string }
  | { kind: 'record'; change: IdentityChange };

/** A judged change: refused, or the writes that make it. */
export type Plan = { refusal: Refusal } | { writes: Write[] };

export function record(
  actor: Actor,
  now: Date,
  action: IdentityChange['action'],
  subject: string,
  details: IdentityChange['details'],
): Write {
  return { kind: 'record', change: { at: now.toISOString(), actor: actorLabel(actor), action, subject, details } };
}

/**
 * Adds a member (`fresh`, a new row with its signing identity), or brings back a removed one of that name with
 * the role asked for (their old keys stay revoked); a current member of that name is MEMBER_EXISTS.
 */
export function planNewMember(actor: Actor, fresh: MemberRow, existing: MemberRow | undefined, now: Date): Plan {
  const refusal = refuseNewMember(actor, fresh.role);
  if (refusal) return { refusal };
  if (existing && existing.removed_at === null) {
    return { refusal: { code: 'MEMBER_EXISTS', message: `${existing.name} is a member already (${existing.role})` } };
  }
  const write: Write = existing ? { kind: 'restore_member', id: existing.id, role: fresh.role } : { kind: 'insert_member', row: fresh };
  const details = { id: existing?.id ?? fresh.id, role: fresh.role, ...(existing ? { restored: 'true' } : {}) };
  return { writes: [write, record(actor, now, 'member.added', fresh.name, details)] };
}

/** Gives `target` the role `role`; their keys' grants follow (model.ts, regrant). */
export function planRoleChange(
  actor: Actor,
  target: MemberRow,
  role: Role,
  owners: number,
  keys: readonly { id: string; grants: Grant[] }[],
  now: Date,
): Plan {
  const refusal = refuseRoleChange(actor, target, role, owners);
  if (refusal) return { refusal };
  if (role === target.role) return { writes: [] };
  const writes: Write[] = [{ kind: 'set_role', id: target.id, role }];
  for (const key of keys)
    writes.push({ kind: 'set_key_grants', id: key.id, grants: JSON.stringify(regrant(key.grants, target.role, role)) });
  writes.push(record(actor, now, 'member.role_changed', target.name, { id: target.id, from: target.role, to: role }));
  return { writes };
}

/** Removes `target`: the row stays (their signatures verify), their keys are revoked with them. */
export function planRemoval(actor: Actor, target: MemberRow, owners: number, now: Date): Plan {
  const refusal = refuseRemoval(actor, target, owners);
  if (refusal) return { refusal };
  const at = now.toISOString();
  return {
    writes: [
      { kind: 'remove_member', id: target.id, at },
      { kind: 'revoke_member_keys', memberId: target.id, at, by: actorLabel(actor) },
      record(actor, now, 'member.removed', target.name, { id: target.id, role: target.role }),
    ],
  };
}

/** What a new key is: its holder, grants, an optional name and expiry. */
export interface KeySpec {
  holder: KeyHolder;
  grants: Grant[];
  name?: string | null;
  expiresAt?: string | null;
}

function newKeyRow(
  actor: Actor,
  spec: { member_id: string | null; agent: string | null; grants: Grant[]; name?: string | null; expiresAt?: string | null },
  fresh: FreshKey,
  now: Date,
): NewKeyRow {
  return {
    ...fresh,
    name: spec.name ?? null,
    member_id: spec.member_id,
    agent: spec.agent,
    grants: JSON.stringify(spec.grants),
    created_at: now.toISOString(),
    created_by: actorLabel(actor),
    expires_at: spec.expiresAt ?? null,
  };
}

/** Makes a key for a current member or an agent. */
export function planNewKey(actor: Actor, spec: KeySpec, fresh: FreshKey, now: Date): Plan {
  const { holder } = spec;
  if ('member' in holder && holder.member.removed_at !== null) {
    return { refusal: { code: 'NOT_FOUND', message: `${holder.member.name} was removed; add them again first` } };
  }
  const refusal = refuseNewKey(actor, holder);
  if (refusal) return { refusal };
  const owner = 'member' in holder ? { member_id: holder.member.id, agent: null } : { member_id: null, agent: holder.agent };
  const row = newKeyRow(actor, { ...spec, ...owner }, fresh, now);
  const subject = holderLabel({ member_name: 'member' in holder ? holder.member.name : null, agent: row.agent });
  return {
    writes: [
      { kind: 'insert_key', row },
      record(actor, now, 'key.created', subject, { key: row.id, name: row.name, expires_at: row.expires_at }),
    ],
  };
}

/**
 * Rotates `key`: a new key for the same holder, name and grants (expiring at `expiresAt`, if given), and the old
 * one working `overlapSeconds` longer (never past its own expiry), then refused as expired.
 */
export function planRotation(
  actor: Actor,
  key: KeyInfo,
  overlapSeconds: number,
  expiresAt: string | null,
  fresh: FreshKey,
  now: Date,
): Plan {
  const refusal = refuseKeyChange(actor, key, 'rotate') ?? refuseRotation(key, now);
  if (refusal) return { refusal };
  const { member_id, agent, grants, name } = key;
  const row = newKeyRow(actor, { member_id, agent, grants, name, expiresAt }, fresh, now);
  const retiredAt = rotatedExpiry(key, now, overlapSeconds);
  return {
    writes: [
      { kind: 'insert_key', row },
      { kind: 'retire_key', id: key.id, expires_at: retiredAt, rotated_to: row.id },
      record(actor, now, 'key.rotated', holderLabel(key), { key: key.id, new_key: row.id, old_key_expires_at: retiredAt }),
    ],
  };
}

/** Revokes `key` at once; a key revoked already is left as it is (no second record). */
export function planRevocation(actor: Actor, key: KeyInfo, now: Date): Plan {
  const refusal = refuseKeyChange(actor, key, 'revoke');
  if (refusal) return { refusal };
  if (key.revoked_at !== null) return { writes: [] };
  const at = now.toISOString();
  return {
    writes: [
      { kind: 'revoke_key', id: key.id, at, by: actorLabel(actor) },
      record(actor, now, 'key.revoked', holderLabel(key), { key: key.id, name: key.name }),
    ],
  };
}

const MEMBER_INSERT_COLUMNS = ['id', 'name', 'role', 'public_key', 'private_key', 'signing', 'created_at'] as const;
const KEY_INSERT_COLUMNS = [
  'id',
  'hash',
  'hint',
  'name',
  'member_id',
  'agent',
  'grants',
  'created_at',
  'created_by',
  'expires_at',
] as const satisfies readonly (keyof NewKeyRow)[];

function marks(count: number, mark: Placeholder): string {
  return Array.from({ length: count }, (_, i) => mark(i + 1)).join(', ');
}

/**
 * The statement that makes one write, in the dialect `mark` writes placeholders for.
 *
 * @example
 * statementOf({ kind: 'revoke_key', id, at, by }, SQLITE_MARK)
 * // { sql: 'UPDATE api_keys SET revoked_at = ?, revoked_by = ? WHERE id = ? AND revoked_at IS NULL', params: [at, by, id] }
 */
export function statementOf(write: Write, mark: Placeholder): Statement {
  switch (write.kind) {
    case 'insert_member':
      return {
        sql: `INSERT INTO members (${MEMBER_INSERT_COLUMNS.join(', ')}) VALUES (${marks(MEMBER_INSERT_COLUMNS.length, mark)})`,
        params: MEMBER_INSERT_COLUMNS.map((c) => write.row[c]),
      };
    case 'restore_member':
      return { sql: `UPDATE members SET removed_at = NULL, role = ${mark(1)} WHERE id = ${mark(2)}`, params: [write.role, write.id] };
    case 'set_role':
      return { sql: `UPDATE members SET role = ${mark(1)} WHERE id = ${mark(2)}`, params: [write.role, write.id] };
    case 'set_key_grants':
      return { sql: `UPDATE api_keys SET grants = ${mark(1)} WHERE id = ${mark(2)}`, params: [write.grants, write.id] };
    case 'remove_member':
      return { sql: `UPDATE members SET removed_at = ${mark(1)} WHERE id = ${mark(2)}`, params: [write.at, write.id] };
    case 'revoke_member_keys':
      return {
        sql: `UPDATE api_keys SET revoked_at = ${mark(1)}, revoked_by = ${mark(2)} WHERE member_id = ${mark(3)} AND revoked_at IS NULL`,
        params: [write.at, write.by, write.memberId],
      };
    case 'insert_key':
      return {
        sql: `INSERT INTO api_keys (${KEY_INSERT_COLUMNS.join(', ')}) VALUES (${marks(KEY_INSERT_COLUMNS.length, mark)})`,
        params: KEY_INSERT_COLUMNS.map((c) => write.row[c] as string),
      };
    case 'retire_key':
      return {
        sql: `UPDATE api_keys SET expires_at = ${mark(1)}, rotated_to = ${mark(2)} WHERE id = ${mark(3)}`,
        params: [write.expires_at, write.rotated_to, write.id],
      };
    case 'revoke_key':
      return {
        sql: `UPDATE api_keys SET revoked_at = ${mark(1)}, revoked_by = ${mark(2)} WHERE id = ${mark(3)} AND revoked_at IS NULL`,
        params: [write.at, write.by, write.id],
      };
    case 'insert_credential':
      return {
        sql: `INSERT INTO member_credentials (${CREDENTIAL_COLUMNS.join(', ')}) VALUES (${marks(CREDENTIAL_COLUMNS.length, mark)})`,
        params: CREDENTIAL_COLUMNS.map((c) => write.row[c]),
      };
    case 'revoke_credential':
      return {
        sql: `UPDATE member_credentials SET revoked_at = ${mark(1)} WHERE id = ${mark(2)} AND revoked_at IS NULL`,
        params: [write.at, write.id],
      };
    case 'record': {
      const { at, actor, action, subject, details } = write.change;
      return {
        sql: `INSERT INTO identity_changes (at, actor, action, subject, details) VALUES (${marks(5, mark)})`,
        params: [at, actor, action, subject, JSON.stringify(details)],
      };
    }
  }
}

/** The keys as the lists read them, joined with their member and when each was last used; a WHERE may follow. */
export const KEY_INFO_SELECT = `SELECT k.id, k.name, k.hint, k.member_id, m.name AS member_name, m.role AS member_role, k.agent,
  k.grants, k.created_at, k.created_by, k.expires_at, k.revoked_at, k.revoked_by, k.rotated_to, u.last_used_at
  FROM api_keys k LEFT JOIN members m ON m.id = k.member_id LEFT JOIN key_usage u ON u.key_id = k.id`;

/** A key's stored grants, read as every stored JSON is: a list that does not read grants nothing. */
export function readGrants(text: string): Grant[] {
  const grants = readStoredJson(text);
  return (Array.isArray(grants) ? grants : []) as Grant[];
}

/** A key as the lists show it, from a KEY_INFO_SELECT row. */
export function keyInfoOf(row: Omit<KeyInfo, 'grants'> & { grants: string }): KeyInfo {
  return { ...row, grants: readGrants(row.grants) };
}

/** The condition a key list's filter adds to KEY_INFO_SELECT, and its parameters. */
export function keyFilterSql(filter: { memberId?: string; agent?: string }, mark: Placeholder): Statement {
  if (filter.memberId !== undefined) return { sql: ` WHERE k.member_id = ${mark(1)}`, params: [filter.memberId] };
  if (filter.agent !== undefined) return { sql: ` WHERE k.agent = ${mark(1)}`, params: [filter.agent] };
  return { sql: '', params: [] };
}

export function noMember(idOrName: string): Refusal {
  return { code: 'NOT_FOUND', message: `no member ${idOrName}` };
}

export function noCredential(id: string): Refusal {
  return { code: 'NOT_FOUND', message: `no credential ${id} of this member` };
}

export function noKey(id: string): Refusal {
  return { code: 'NOT_FOUND', message: `no key ${id}` };
}

/** The holder a key request names: an agent, or a member found by id or name (a removed one is refused later). */
export function holderOf(
  request: { holder: { member: string } | { agent: string } },
  find: (idOrName: string) => MemberRow | undefined,
): KeyHolder | { refusal: Refusal } {
  if ('agent' in request.holder) return { agent: request.holder.agent };
  const member = find(request.holder.member);
  return member ? { member } : { refusal: noMember(request.holder.member) };
}

/** The record of changes, oldest first by `seq`, paged newest first as the other lists are (keyset.ts). */
export const CHANGES_SELECT = 'SELECT seq AS row_key, at AS created_at, actor, action, subject, details FROM identity_changes';

/** A change as the record route answers it, from a CHANGES_SELECT row. */
export function changeOf(row: { created_at: string; actor: string; action: string; subject: string; details: string }): IdentityChange {
  const details = readStoredJson(row.details);
  return {
    at: row.created_at,
    actor: row.actor,
    action: row.action as IdentityChange['action'],
    subject: row.subject,
    details: (details !== null && typeof details === 'object' && !Array.isArray(details) ? details : {}) as IdentityChange['details'],
  };
}
