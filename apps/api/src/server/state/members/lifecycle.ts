// Who may change whom, and what a key's row says of it now: the rules of members and keys (docs/security.md,
// "Roles" and "Keys"), pure, so SQLite (sqlite.ts) and PostgreSQL (postgres.ts) refuse alike and the CLI and the
// API share one judge. Each store reads what a rule needs (the target, the owners left) inside the transaction
// that writes the change, so two racing changes never leave a workspace without an owner.
import { type Grant, keyStatus, type MemberRow, type Role } from './model.ts';

/**
 * Who makes a change: a member through the API, an operator with the database (the CLI, which may do what an owner
 * may, since it could write the rows itself), or an identity provider's sign-in mapping a role (identity/).
 */
export type Actor = { kind: 'member'; member: MemberRow } | { kind: 'operator' } | { kind: 'issuer'; issuer: string };

/** How an actor is named in the record of changes. */
export function actorLabel(actor: Actor): string {
  if (actor.kind === 'member') return `member:${actor.member.name}`;
  return actor.kind === 'operator' ? 'operator' : `issuer:${actor.issuer}`;
}

/** A refusal of a change, with the code the API answers (the code registry's statuses). */
export interface Refusal {
  code:
    | 'LAST_OWNER'
    | 'OWN_ROLE'
    | 'OWNER_REQUIRED'
    | 'ROLE_REQUIRED'
    | 'KEY_NOT_ACTIVE'
    | 'MEMBER_EXISTS'
    | 'NOT_FOUND'
    | 'CREDENTIAL_EXISTS'
    | 'TOO_MANY_CREDENTIALS';
  message: string;
}

/**
 * How much a role may do, for "nobody raises their own role": a developer and an approver may each do what the
 * other cannot, so moving between them is no lowering either.
 */
const RANK: Readonly<Record<Role, number>> = { owner: 4, admin: 3, developer: 2, approver: 2, viewer: 1 };

/** Whether the actor may manage members and keys at all: owners, admins, and the operator and issuers. */
function manages(actor: Actor): boolean {
  return actor.kind !== 'member' || actor.member.role === 'owner' || actor.member.role === 'admin';
}

function managerRequired(actor: Actor): Refusal | undefined {
  if (manages(actor)) return undefined;
  const role = actor.kind === 'member' ? actor.member.role : '';
  return { code: 'ROLE_REQUIRED', message: `managing members and keys needs the role owner or admin; you are ${role}` };
}

/** Only an owner (or the operator, or an issuer's mapping) makes, changes or removes an owner. */
function ownerRequired(actor: Actor, what: string): Refusal | undefined {
  if (actor.kind !== 'member' || actor.member.role === 'owner') return undefined;
  return { code: 'OWNER_REQUIRED', message: `only an owner can ${what}` };
}

/**
 * Why `actor` may not give `target` the role `role` (undefined when it may), with `owners` the members who are
 * owners now, the target included.
 *
 * @example
 * refuseRoleChange({ kind: 'member', member: admin }, owner, 'viewer', 2) // { code: 'OWNER_REQUIRED', ... }
 */
export function refuseRoleChange(actor: Actor, target: MemberRow, role: Role, owners: number): Refusal | undefined {
  if (actor.kind === 'member' && actor.member.id === target.id) {
    if (RANK[role] > RANK[target.role] || (role !== target.role && RANK[role] === RANK[target.role])) {
      return { code: 'OWN_ROLE', message: `a member cannot raise their own role (${target.role} to ${role}); ask an owner or admin` };
    }
  } else {
    const refusal = managerRequired(actor);
    if (refusal) return refusal;
  }
  if (role === 'owner' || target.role === 'owner') {
    const refusal = ownerRequired(actor, role === 'owner' ? 'make an owner' : "change an owner's role");
    if (refusal) return refusal;
  }
  return lastOwner(target, role === 'owner', owners, `${target.name} is the last owner; make another owner first`);
}

/** Why `actor` may not remove `target` (undefined when it may). */
export function refuseRemoval(actor: Actor, target: MemberRow, owners: number): Refusal | undefined {
  const refusal = managerRequired(actor) ?? (target.role === 'owner' ? ownerRequired(actor, 'remove an owner') : undefined);
  return refusal ?? lastOwner(target, false, owners, `${target.name} is the last owner and cannot be removed; make another owner first`);
}

function lastOwner(target: MemberRow, staysOwner: boolean, owners: number, message: string): Refusal | undefined {
  return target.role === 'owner' && !staysOwner && owners <= 1 ? { code: 'LAST_OWNER', message } : undefined;
}

/** Why `actor` may not add a member with `role` (undefined when it may). */
export function refuseNewMember(actor: Actor, role: Role): Refusal | undefined {
  return managerRequired(actor) ?? (role === 'owner' ? ownerRequired(actor, 'make an owner') : undefined);
}

/** What a key is for: a member (by row) or an agent (by name). */
export type KeyHolder = { member: MemberRow } | { agent: string };

/**
 * Why `actor` may not make (or rotate, which makes) a key for `holder`: owners and admins make keys; a key for an
 * owner is an owner's power, so only an owner makes one.
 */
export function refuseNewKey(actor: Actor, holder: KeyHolder): Refusal | undefined {
  const refusal = managerRequired(actor);
  if (refusal) return refusal;
  return 'member' in holder && holder.member.role === 'owner' ? ownerRequired(actor, "make an owner's key") : undefined;
}

/**
 * Why `actor` may not rotate or revoke a key held by `holderId` (a member's id, or null for an agent's): owners
 * and admins may any key but an owner's key's rotation; any member may their own, so a person who fears a leak
 * need wait for no one.
 */
export function refuseKeyChange(actor: Actor, key: KeyInfo, change: 'rotate' | 'revoke'): Refusal | undefined {
  if (actor.kind === 'member' && key.member_id === actor.member.id) return undefined;
  const refusal = managerRequired(actor);
  if (refusal) return refusal;
  return change === 'rotate' && key.member_role === 'owner' ? ownerRequired(actor, "rotate an owner's key") : undefined;
}

/** A key as the lists show it: never its hash. */
export interface KeyInfo {
  id: string;
  name: string | null;
  /** The key's last four characters, so a person can tell which key they hold (null for keys made before). */
  hint: string | null;
  member_id: string | null;
  member_name: string | null;
  member_role: Role | null;
  agent: string | null;
  grants: Grant[];
  created_at: string;
  created_by: string | null;
  expires_at: string | null;
  revoked_at: string | null;
  revoked_by: string | null;
  /** The key that replaced this one when it was rotated. */
  rotated_to: string | null;
  last_used_at: string | null;
}

/** Why a key may not be rotated: a revoked or expired one, or one rotated already (rotate its successor). */
export function refuseRotation(key: KeyInfo, now: Date): Refusal | undefined {
  const status = keyStatus(key, now);
  if (status !== 'active') return { code: 'KEY_NOT_ACTIVE', message: `the key is ${status}; make a new key instead` };
  if (key.rotated_to !== null) return { code: 'KEY_NOT_ACTIVE', message: `the key was rotated already; rotate ${key.rotated_to}` };
  return undefined;
}

/** The longest overlap a rotation may keep the old key working: 30 days. */
export const MAX_OVERLAP_SECONDS = 30 * 24 * 3600;

/** When a rotated key stops: after the overlap, or at its own expiry if sooner. */
export function rotatedExpiry(key: KeyInfo, now: Date, overlapSeconds: number): string {
  const end = new Date(now.getTime() + overlapSeconds * 1000).toISOString();
  return key.expires_at !== null && key.expires_at < end ? key.expires_at : end;
}

/** One change to members or keys, as the record keeps it: who, what, when; never a key or its hash. */
export interface IdentityChange {
  at: string;
  actor: string;
  action:
    | 'member.added'
    | 'member.role_changed'
    | 'member.removed'
    | 'key.created'
    | 'key.rotated'
    | 'key.revoked'
    | 'credential.enrolled'
    | 'credential.revoked';
  /** The member's name, or `agent:NAME` for an agent's key. */
  subject: string;
  /** What changed: a role's from and to, a key's id and name, an expiry. */
  details: Record<string, string | null>;
}

/** How a key's holder is named in the record of changes. */
export function holderLabel(key: { member_name: string | null; agent: string | null }): string {
  return key.agent !== null ? `agent:${key.agent}` : (key.member_name ?? '');
}
