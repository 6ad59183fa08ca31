// Members and API keys: keys are random, shown once, stored as sha-256 hashes; each member has an
// Ed25519 signing identity, since approving means signing.
import { createHash, generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import type { Db } from './db.ts';
import { readStoredJson } from './stored-json.ts';

export const ROLES = ['owner', 'admin', 'approver', 'developer', 'viewer'] as const;
export type Role = (typeof ROLES)[number];
/**
 * What a key may do beyond its member's role: `catalogue` compiles against the catalogue; `model` marks the key
 * as a model's (an assistant acting as its member): its edits are authored `model` and held for a person to
 * activate, and it activates and reverts nothing (docs/documents.md, "A model's edits").
 */
export const GRANTS = ['catalogue', 'model'] as const;
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

export type Principal = { kind: 'member'; member: MemberRow; grants: Grant[] } | { kind: 'agent'; agent: string; grants: Grant[] };

export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** A new member's row, with a new Ed25519 signing identity. */
export function newMemberRow(name: string, role: Role, now: Date): MemberRow {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    id: randomUUID(),
    name,
    role,
    public_key: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    signing: 1,
    created_at: now.toISOString(),
  };
}

/** Adds a member with a new signing identity. */
export function createMember(db: Db, name: string, role: Role, now = new Date()): MemberRow {
  const row = newMemberRow(name, role, now);
  db.prepare(
    'INSERT INTO members (id, name, role, public_key, private_key, signing, created_at) VALUES (@id, @name, @role, @public_key, @private_key, @signing, @created_at)',
  ).run(row);
  return row;
}

/** Creates a key for a member or an agent; returns the key, which is never stored. */
export function createKey(db: Db, owner: { member: string } | { agent: string }, grants: Grant[] = [], now = new Date()): string {
  const { key, values } = newKeyRow(owner, grants, now);
  db.prepare('INSERT INTO api_keys (id, hash, member_id, agent, grants, created_at) VALUES (?, ?, ?, ?, ?, ?)').run(...values);
  return key;
}

/** A new key, and its api_keys row's values (id, hash, member_id, agent, grants, created_at): the key itself is never stored. */
export function newKeyRow(
  owner: { member: string } | { agent: string },
  grants: Grant[],
  now: Date,
): { key: string; values: [string, string, string | null, string | null, string, string] } {
  const key = `tg_${randomBytes(24).toString('base64url')}`;
  return {
    key,
    values: [
      randomUUID(),
      hashKey(key),
      'member' in owner ? owner.member : null,
      'agent' in owner ? owner.agent : null,
      JSON.stringify(grants),
      now.toISOString(),
    ],
  };
}

/** The principal a key belongs to, or undefined. */
export function principalOf(db: Db, key: string): Principal | undefined {
  const row = db.prepare('SELECT member_id, agent, grants FROM api_keys WHERE hash = ?').get(hashKey(key)) as
    | { member_id: string | null; agent: string | null; grants: string }
    | undefined;
  if (!row) return undefined;
  // Read as every stored JSON is (stored-json.ts); a list that does not read grants nothing.
  const grants = (readStoredJson(row.grants) ?? []) as Grant[];
  if (row.agent !== null) return { kind: 'agent', agent: row.agent, grants };
  const member = findMember(db, row.member_id ?? '');
  return member ? { kind: 'member', member, grants } : undefined;
}

export function findMember(db: Db, idOrName: string): MemberRow | undefined {
  return db.prepare('SELECT * FROM members WHERE id = ? OR name = ?').get(idOrName, idOrName) as MemberRow | undefined;
}

export function listMembers(db: Db): MemberRow[] {
  return db.prepare('SELECT * FROM members ORDER BY created_at, name').all() as MemberRow[];
}
