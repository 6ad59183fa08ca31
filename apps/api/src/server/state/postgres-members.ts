// Members and keys on PostgreSQL, as members.ts and auth-cache.ts keep them in SQLite: keys stored as sha-256
// hashes, and principals and members cached while the auth generation stands still (a trigger moves it on any
// change from any node; it is read at most once per turn of the event loop), so a revoked key or a changed role
// counts on the next call whichever node made the change.
import { hash } from 'node:crypto';
import type { Member } from '@tollgate/engine';
import type pg from 'pg';
import { judgedMembers, type MemberKeyRow, modelOnlyMembers } from './judged-members.ts';
import { type Grant, type MemberRow, newKeyRow, newMemberRow, type Principal, type Role } from './members.ts';
import { rowsOf, type TurnRead } from './postgres-query.ts';
import { readStoredJson } from './stored-json.ts';

/** At most this many keys are remembered; past it the cache starts again (keys are few in practice). */
const MAX_KEYS = 10_000;

const MEMBER_COLUMNS = 'id, name, role, public_key, private_key, signing, created_at';

/** What was read while the generation stood at `generation`; a change replaces the whole object. */
interface AuthSnapshot {
  generation: number;
  /** Key hash -> principal, or null for a hash no key has (so a wrong key costs no read either). */
  principals: Map<string, Principal | null>;
  members: Promise<MemberRow[]> | undefined;
}

export class PostgresMembers {
  private readonly pool: pg.Pool;
  private readonly generation: TurnRead;
  private snapshot: AuthSnapshot = { generation: -1, principals: new Map(), members: undefined };
  private judged: { rows: readonly MemberRow[]; members: Member[] } | undefined;

  /** `generation`: the auth generation, read at most once per turn (TurnGenerations). */
  constructor(pool: pg.Pool, generation: TurnRead) {
    this.pool = pool;
    this.generation = generation;
  }

  /** The snapshot to read from: a read finished after a change lands in the snapshot it began with, not the new one. */
  private async current(): Promise<AuthSnapshot> {
    const generation = await this.generation.read();
    if (generation !== this.snapshot.generation) this.snapshot = { generation, principals: new Map(), members: undefined };
    return this.snapshot;
  }

  async principalOf(key: string): Promise<Principal | undefined> {
    const snapshot = await this.current();
    // The one-shot hash: the same sha-256 hex as hashKey, a third of its cost.
    const keyHash = hash('sha256', key, 'hex');
    const hit = snapshot.principals.get(keyHash);
    if (hit !== undefined) return hit ?? undefined;
    const principal = await this.readPrincipal(keyHash);
    if (snapshot.principals.size >= MAX_KEYS) snapshot.principals.clear();
    snapshot.principals.set(keyHash, principal ?? null);
    return principal;
  }

  private async readPrincipal(keyHash: string): Promise<Principal | undefined> {
    const [row] = await rowsOf<{ member_id: string | null; agent: string | null; grants: string } & Partial<MemberRow>>(
      this.pool,
      `SELECT k.member_id, k.agent, k.grants, ${MEMBER_COLUMNS.split(', ')
        .map((c) => `m.${c}`)
        .join(', ')}
       FROM api_keys k LEFT JOIN members m ON m.id = k.member_id WHERE k.hash = $1`,
      [keyHash],
    );
    if (!row) return undefined;
    // Read as every stored JSON is (stored-json.ts); a list that does not read grants nothing.
    const grants = (readStoredJson(row.grants) ?? []) as Grant[];
    if (row.agent !== null) return { kind: 'agent', agent: row.agent, grants };
    if (row.id === null || row.id === undefined) return undefined;
    const { member_id: _m, agent: _a, grants: _g, ...member } = row;
    return { kind: 'member', member: member as MemberRow, grants };
  }

  async members(): Promise<readonly MemberRow[]> {
    const snapshot = await this.current();
    snapshot.members ??= rowsOf<MemberRow>(this.pool, `SELECT ${MEMBER_COLUMNS} FROM members ORDER BY created_at, name`);
    try {
      return await snapshot.members;
    } catch (err) {
      snapshot.members = undefined;
      throw err;
    }
  }

  /** The members as rules judge approvers: the same array while they are unchanged. */
  async judgedMembers(): Promise<readonly Member[]> {
    const rows = await this.members();
    if (this.judged?.rows !== rows) {
      const keys = await rowsOf<MemberKeyRow>(this.pool, 'SELECT member_id, grants FROM api_keys WHERE member_id IS NOT NULL');
      this.judged = { rows, members: judgedMembers(rows, modelOnlyMembers(keys)) };
    }
    return this.judged.members;
  }

  /** The members as last read by judgedMembers (none before the first read). */
  judgedMembersSeen(): readonly Member[] {
    return this.judged?.members ?? [];
  }

  async findMember(idOrName: string): Promise<MemberRow | undefined> {
    const [row] = await rowsOf<MemberRow>(this.pool, `SELECT ${MEMBER_COLUMNS} FROM members WHERE id = $1 OR name = $1`, [idOrName]);
    return row;
  }

  async createMember(name: string, role: Role, now = new Date()): Promise<MemberRow> {
    const row = newMemberRow(name, role, now);
    await rowsOf(this.pool, `INSERT INTO members (${MEMBER_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
      row.id,
      row.name,
      row.role,
      row.public_key,
      row.private_key,
      row.signing,
      row.created_at,
    ]);
    this.generation.stale();
    return row;
  }

  async createKey(owner: { member: string } | { agent: string }, grants: Grant[] = [], now = new Date()): Promise<string> {
    const { key, values } = newKeyRow(owner, grants, now);
    await rowsOf(
      this.pool,
      'INSERT INTO api_keys (id, hash, member_id, agent, grants, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
      values,
    );
    this.generation.stale();
    return key;
  }

  async countMembers(): Promise<number> {
    const [row] = await rowsOf<{ n: number }>(this.pool, 'SELECT count(*) AS n FROM members');
    return row?.n ?? 0;
  }
}
