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
] as const satisfies readonly (keyof MemberRow)[];

export type Principal = { kind: 'member'; member: MemberRow; grants: Grant[] } | { kind: 'agent'; agent: string; grants: Grant[] };

/** What an api_keys row says of its owner: a member's id or an agent's name, and its grants as JSON. */
export interface KeyRow {
  member_id: string | null;
  agent: string | null;
  grants: string;
}

/**
 * The principal a stored key names: its agent, or its member as `memberOf` finds them (none when the member is
 * gone).
 *
 * @example
 * principalOfKey({ member_id: null, agent: 'billing', grants: '[]' }, find) // { kind: 'agent', agent: 'billing', grants: [] }
 */
export function principalOfKey(key: KeyRow, memberOf: (id: string) => MemberRow | undefined): Principal | undefined {
  // Read as every stored JSON is (stored-json.ts); a list that does not read grants nothing.
  const grants = (readStoredJson(key.grants) ?? []) as Grant[];
  if (key.agent !== null) return { kind: 'agent', agent: key.agent, grants };
  const member = memberOf(key.member_id ?? '');
  return member ? { kind: 'member', member, grants } : undefined;
}

/** A member key's row as both stores keep it: its member (null for an agent's key) and its grants as JSON. */
export type MemberKeyRow = Omit<KeyRow, 'agent'>;

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
