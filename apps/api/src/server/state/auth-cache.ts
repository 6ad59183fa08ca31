// Keys and members kept in memory for the hot path (every gate call authenticates and lists the
// approvers), trusted only while the auth generation stands still: a trigger moves it on any change to
// members or api_keys, from any connection, so a revoked key or a changed role counts on the next call.
import { hash } from 'node:crypto';
import type { Member } from '@tollgate/engine';
import type { Db } from './db.ts';
import { judgedMembers, type MemberKeyRow, modelOnlyMembers } from './judged-members.ts';
import { listMembers, type MemberRow, type Principal, principalOf } from './members.ts';

/** At most this many keys are remembered; past it the cache starts again (keys are few in practice). */
const MAX_KEYS = 10_000;

interface AuthCache {
  generation: () => number;
  seen: number;
  /** Whether the generation was read in this turn of the event loop. */
  readThisTurn: boolean;
  /** Key hash -> principal, or null for a hash no key has (so a wrong key costs no read either). */
  principals: Map<string, Principal | null>;
  members: MemberRow[] | undefined;
}

const caches = new WeakMap<Db, AuthCache>();

function cacheOf(db: Db): AuthCache {
  let cache = caches.get(db);
  if (!cache) {
    const read = db.prepare('SELECT generation FROM auth_generation WHERE id = 1').pluck();
    cache = { generation: () => read.get() as number, seen: -1, readThisTurn: false, principals: new Map(), members: undefined };
    caches.set(db, cache);
  }
  // One read of one row, which sees other connections' writes, at most once per turn of the event loop:
  // every request handled in a turn arrived before it began, so none was sent after a change it misses.
  if (!cache.readThisTurn) {
    const now = cache.generation();
    if (now !== cache.seen) {
      cache.seen = now;
      cache.principals.clear();
      cache.members = undefined;
    }
    cache.readThisTurn = true;
    const current = cache;
    setImmediate(() => {
      current.readThisTurn = false;
    });
  }
  return cache;
}

/**
 * The principal a key belongs to, as `principalOf` reads it, remembered by the key's hash.
 *
 * @example
 * const principal = cachedPrincipalOf(ctx.db, 'tg_...'); // undefined for an unknown key
 */
export function cachedPrincipalOf(db: Db, key: string): Principal | undefined {
  const cache = cacheOf(db);
  // The one-shot hash: the same sha-256 hex as hashKey, a third of its cost.
  const keyHash = hash('sha256', key, 'hex');
  const hit = cache.principals.get(keyHash);
  if (hit !== undefined) return hit ?? undefined;
  const principal = principalOf(db, key);
  if (cache.principals.size >= MAX_KEYS) cache.principals.clear();
  cache.principals.set(keyHash, principal ?? null);
  return principal;
}

/** Every member, as `listMembers` reads them; the same array while nothing changed (do not mutate it). */
export function cachedMembers(db: Db): readonly MemberRow[] {
  const cache = cacheOf(db);
  cache.members ??= listMembers(db);
  return cache.members;
}

const judgedMembersOf = new WeakMap<readonly MemberRow[], Member[]>();

/**
 * The members as rules judge approvers (id, role, signing, model: judged-members.ts), from the members cache: the same array while
 * they are unchanged, so a gate call allocates none.
 */
export function cachedJudgedMembers(db: Db): readonly Member[] {
  const rows = cachedMembers(db);
  let members = judgedMembersOf.get(rows);
  if (!members) {
    const keys = db.prepare('SELECT member_id, grants FROM api_keys WHERE member_id IS NOT NULL').all() as MemberKeyRow[];
    members = judgedMembers(rows, modelOnlyMembers(keys));
    judgedMembersOf.set(rows, members);
  }
  return members;
}
