// Members and API keys as both state stores keep them: the roles and grants, a member's row (each member has an
// Ed25519 signing identity, since approving means signing: credentials.ts makes it), the principal a stored key
// names, and the members as rules judge approvers (docs/policy.md, "Approvers"). Pure, so SQLite (sqlite.ts) and
// PostgreSQL (postgres.ts) read keys and members alike.
import type { Member } from '@tollgate/engine';
import { readStoredJson } from '../stored-json.ts';

export const ROLES = ['owner', 'admin', 'approver', 'developer', 'viewer'] as const;
export type Role = (typeof ROLES)[number];
/**
 * What a key may do beyond its member's role: `catalogue` compiles against the catalogue; `model` marks the key
 * as a model's (an assistant acting as its member): its edits are authored `model` and held for a person to
 * activate, and it activates and reverts nothing (docs/documents.md, "A model's edits"); `metrics` scrapes
 * GET /metrics without the owner's or admin's role (docs/deploy.md, "Metrics and traces").
 */
export const GRANTS = ['catalogue', 'model', 'metrics'] as const;
export type Grant = (typeof GRANTS)[number];
/**
 * The grants a member's key gets from its role, as the demo workspace gives them and `tollgate keys create` does:
 * the roles that write documents compile against the catalogue (docs/cli.md, "tollgate keys create").
 */
export const ROLE_GRANTS: Readonly<Record<Role, readonly Grant[]>> = {
  owner: ['catalogue'],
  admin: ['catalogue'],
  approver: [],
  developer: ['catalogue'],
  viewer: [],
};

export interface MemberRow {
  id: string;
  name: string;
  role: Role;
  public_key: string;
  private_key: string;
  signing: number;
  created_at: string;
  /** When the member was removed (their keys revoked with them); null while a member. Kept, so the approvals they signed still verify. */
  removed_at: string | null;
}

/** The members table's columns, in its order. */
export const MEMBER_COLUMNS = [
  'id',
  'name',
  'role',
  'public_key',
  'private_key',
  'signing',
  'created_at',
  'removed_at',
] as const satisfies readonly (keyof MemberRow)[];

export type Principal = { kind: 'member'; member: MemberRow; grants: Grant[] } | { kind: 'agent'; agent: string; grants: Grant[] };

/** What an api_keys row says of its owner and standing: a member's id or an agent's name, its grants as JSON. */
export interface KeyRow {
  id: string;
  member_id: string | null;
  agent: string | null;
  grants: string;
  expires_at: string | null;
  revoked_at: string | null;
}

/** What a key may be refused as, beside being unknown: each 401 says which (docs/security.md, "Keys"). */
export type KeyRefusal = 'KEY_REVOKED' | 'KEY_EXPIRED' | 'MEMBER_REMOVED';

/** What a key's hash was read as: the principal it names and the row's standing, or its member removed. */
export type KeyStanding =
  | { principal: Principal; keyId: string; expires_at: string | null; revoked_at: string | null }
  | { refused: 'MEMBER_REMOVED' };

/** A key checked at a moment: the principal it acts as, or why it is refused. */
export type KeyAuthentication = { principal: Principal; keyId: string } | { refused: KeyRefusal; message: string };

/**
 * What a stored key stands as: its agent, or its member as `memberOf` finds them (none when the member is gone,
 * refused when removed).
 *
 * @example
 * standingOfKey({ id, member_id: null, agent: 'billing', grants: '[]', expires_at: null, revoked_at: null }, find)
 * // { principal: { kind: 'agent', agent: 'billing', grants: [] }, keyId: id, expires_at: null, revoked_at: null }
 */
export function standingOfKey(key: KeyRow, memberOf: (id: string) => MemberRow | undefined): KeyStanding | undefined {
  // Read as every stored JSON is (stored-json.ts); a list that does not read grants nothing.
  const grants = (readStoredJson(key.grants) ?? []) as Grant[];
  const standing = { keyId: key.id, expires_at: key.expires_at, revoked_at: key.revoked_at };
  if (key.agent !== null) return { principal: { kind: 'agent', agent: key.agent, grants }, ...standing };
  const member = memberOf(key.member_id ?? '');
  if (!member) return undefined;
  if (member.removed_at !== null) return { refused: 'MEMBER_REMOVED' };
  return { principal: { kind: 'member', member, grants }, ...standing };
}

/**
 * A key's standing at `now` (keyStatus): the principal while it is active, else the refusal. The
 * caches keep standings, not answers, so a key whose expiry passes is refused on its next call though nothing
 * changed in the database.
 */
export function authenticationAt(standing: KeyStanding, now: Date): KeyAuthentication {
  if ('refused' in standing) return { refused: 'MEMBER_REMOVED', message: "the key's member was removed" };
  const status = keyStatus(standing, now);
  if (status === 'revoked') return { refused: 'KEY_REVOKED', message: `the key was revoked at ${standing.revoked_at}` };
  if (status === 'expired') return { refused: 'KEY_EXPIRED', message: `the key expired at ${standing.expires_at}` };
  return { principal: standing.principal, keyId: standing.keyId };
}

/** A key's state at `now`: active, expired (its expiry is past, a rotation's overlap included) or revoked. */
export type KeyStatus = 'active' | 'expired' | 'revoked';

/**
 * A key's state at `now`. An expiry that does not read as a time counts as past: a key is never kept alive by a
 * value no one can read.
 */
export function keyStatus(key: { expires_at: string | null; revoked_at: string | null }, now: Date): KeyStatus {
  if (key.revoked_at !== null) return 'revoked';
  if (key.expires_at === null) return 'active';
  const expires = Date.parse(key.expires_at);
  return Number.isFinite(expires) && expires > now.getTime() ? 'active' : 'expired';
}

/**
 * A member key's grants after its member's role moves from `from` to `to`: what the old role gave goes, what the
 * new one gives comes, and a grant given besides the role (model, metrics) stays.
 *
 * @example
 * regrant(['catalogue', 'model'], 'developer', 'viewer') // ['model']
 */
export function regrant(grants: readonly Grant[], from: Role, to: Role): Grant[] {
  const kept = grants.filter((g) => !ROLE_GRANTS[from].includes(g));
  return GRANTS.filter((g) => kept.includes(g) || ROLE_GRANTS[to].includes(g));
}

/** A member key's row as both stores keep it: its member (null for an agent's key) and its grants as JSON. */
export type MemberKeyRow = Pick<KeyRow, 'member_id' | 'grants'>;

/**
 * The members as the engine judges approvers, given every member key: a member whose keys are all a model's
 * (the `model` grant) is marked `model`, since a model never approves a held call (route-kit.ts, people()), so it
 * is never counted or listed among the eligible approvers.
 *
 * @example
 * judgedMembers(rows, keys) // [{ id, role, signing: true }, { id, role, signing: true, model: true }]
 */
export function judgedMembers(rows: readonly MemberRow[], keys: readonly MemberKeyRow[]): Member[] {
  const modelOnly = modelOnlyMembers(keys);
  return rows.map((m) => ({ id: m.id, role: m.role, signing: m.signing === 1, ...(modelOnly.has(m.id) ? { model: true } : {}) }));
}

/** The members as rules judge approvers, as they stand and as they stand when only member-held keys sign. */
export interface JudgedMembers {
  all: Member[];
  /** approvals_require_member_keys: a member without an active passkey or device key signs nothing. */
  holding: Member[];
}

/** Both judgements of the members, given every member key and the members holding a credential of their own. */
export function judgedBoth(
  rows: readonly MemberRow[],
  keys: readonly MemberKeyRow[],
  holders: readonly { member_id: string }[],
): JudgedMembers {
  const all = judgedMembers(rows, keys);
  const holding = new Set(holders.map((h) => h.member_id));
  return { all, holding: all.map((m) => (m.signing && !holding.has(m.id) ? { ...m, signing: false } : m)) };
}

/** The ids of the members with at least one key, every one of them a model's. */
function modelOnlyMembers(keys: readonly MemberKeyRow[]): Set<string> {
  const person = new Set<string>();
  const model = new Set<string>();
  for (const key of keys) {
    if (key.member_id === null) continue;
    // Read as principalOfKey reads it: grants that do not read grant nothing, so the key is a person's.
    const grants = readStoredJson(key.grants);
    (Array.isArray(grants) && grants.includes('model') ? model : person).add(key.member_id);
  }
  return new Set([...model].filter((id) => !person.has(id)));
}
