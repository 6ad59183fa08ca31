// Members and API keys in SQLite (model.ts defines them, credentials.ts makes them), and the cache of them the hot
// path reads (auth-cache.ts): the generation is one read of one row, which sees other connections' writes (the
// CLI's, a person's sqlite3), at most once per turn of the event loop (sqlite-turn-read.ts).
import type { Member } from '@tollgate/engine';
import type { Db } from '../db.ts';
import { turnRead } from '../sqlite-turn-read.ts';
import { AuthSnapshot } from './auth-cache.ts';
import { hashKey, newKeyRow, newMemberRow } from './credentials.ts';
import {
  type Grant,
  judgedMembers as judgeMembers,
  type KeyRow,
  type MemberKeyRow,
  type MemberRow,
  type Principal,
  principalOfKey,
  type Role,
} from './model.ts';

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

/** The principal a key belongs to, or undefined. */
export function readPrincipal(db: Db, key: string): Principal | undefined {
  const row = db.prepare('SELECT member_id, agent, grants FROM api_keys WHERE hash = ?').get(hashKey(key)) as KeyRow | undefined;
  return row && principalOfKey(row, (id) => findMember(db, id));
}

export function findMember(db: Db, idOrName: string): MemberRow | undefined {
  return db.prepare('SELECT * FROM members WHERE id = ? OR name = ?').get(idOrName, idOrName) as MemberRow | undefined;
}

export function listMembers(db: Db): MemberRow[] {
  return db.prepare('SELECT * FROM members ORDER BY created_at, name').all() as MemberRow[];
}

const snapshots = new WeakMap<Db, AuthSnapshot>();

function snapshotOf(db: Db): AuthSnapshot {
  const generation = turnRead(db, 'SELECT generation FROM auth_generation WHERE id = 1').read();
  let snapshot = snapshots.get(db);
  if (snapshot === undefined || snapshot.generation !== generation) {
    snapshot = new AuthSnapshot(generation);
    snapshots.set(db, snapshot);
  }
  return snapshot;
}

/**
 * The principal a key belongs to, as `readPrincipal` reads it, remembered by the key's hash.
 *
 * @example
 * const principal = principalOf(ctx.db, 'tg_...'); // undefined for an unknown key
 */
export function principalOf(db: Db, key: string): Principal | undefined {
  const snapshot = snapshotOf(db);
  const keyHash = hashKey(key);
  const hit = snapshot.principal(keyHash);
  if (hit !== undefined) return hit ?? undefined;
  return snapshot.remember(keyHash, readPrincipal(db, key));
}

/** Every member, as `listMembers` reads them; the same array while nothing changed (do not mutate it). */
export function members(db: Db): readonly MemberRow[] {
  const snapshot = snapshotOf(db);
  snapshot.members ??= listMembers(db);
  return snapshot.members;
}

const judgedByRows = new WeakMap<readonly MemberRow[], Member[]>();

/**
 * The members as rules judge approvers (model.ts, judgedMembers), from the members cache: the same array while
 * they are unchanged, so a gate call allocates none.
 */
export function judgedMembers(db: Db): readonly Member[] {
  const rows = members(db);
  let judged = judgedByRows.get(rows);
  if (!judged) {
    const keys = db.prepare('SELECT member_id, grants FROM api_keys WHERE member_id IS NOT NULL').all() as MemberKeyRow[];
    judged = judgeMembers(rows, keys);
    judgedByRows.set(rows, judged);
  }
  return judged;
}

/** How many members there are. */
export function countMembers(db: Db): number {
  return (db.prepare('SELECT COUNT(*) AS n FROM members').get() as { n: number }).n;
}
