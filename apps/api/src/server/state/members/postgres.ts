// Members and keys on PostgreSQL, as sqlite.ts keeps them in SQLite (model.ts defines them, credentials.ts makes
// them): principals and members are cached (auth-cache.ts) while the auth generation stands still (a trigger
// moves it on any change from any node; it is read at most once per turn of the event loop), so a revoked key or
// a changed role counts on the next call whichever node made the change.
import type { Member } from '@tollgate/engine';
import type pg from 'pg';
import { rowsOf, type TurnRead } from '../postgres-query.ts';
import { AuthSnapshot } from './auth-cache.ts';
import { hashKey, newKeyRow, newMemberRow } from './credentials.ts';
import {
  type Grant,
  judgedMembers,
  type KeyRow,
  MEMBER_COLUMNS,
  type MemberKeyRow,
  type MemberRow,
  type Principal,
  principalOfKey,
  type Role,
} from './model.ts';

const SELECTED = MEMBER_COLUMNS.join(', ');

export class PostgresMembers {
  private readonly pool: pg.Pool;
  private readonly generation: TurnRead;
  private snapshot = new AuthSnapshot<Promise<MemberRow[]>>(-1);
  private judged: { rows: readonly MemberRow[]; members: Member[] } | undefined;

  /** `generation`: the auth generation, read at most once per turn (TurnGenerations). */
  constructor(pool: pg.Pool, generation: TurnRead) {
    this.pool = pool;
    this.generation = generation;
  }

  /** The snapshot to read from: a read finished after a change lands in the snapshot it began with, not the new one. */
  private async current(): Promise<AuthSnapshot<Promise<MemberRow[]>>> {
    const generation = await this.generation.read();
    if (generation !== this.snapshot.generation) this.snapshot = new AuthSnapshot(generation);
    return this.snapshot;
  }

  async principalOf(key: string): Promise<Principal | undefined> {
    const snapshot = await this.current();
    const keyHash = hashKey(key);
    const hit = snapshot.principal(keyHash);
    if (hit !== undefined) return hit ?? undefined;
    return snapshot.remember(keyHash, await this.readPrincipal(keyHash));
  }

  private async readPrincipal(keyHash: string): Promise<Principal | undefined> {
    const [row] = await rowsOf<KeyRow & Partial<MemberRow>>(
      this.pool,
      `SELECT k.member_id, k.agent, k.grants, ${MEMBER_COLUMNS.map((c) => `m.${c}`).join(', ')}
       FROM api_keys k LEFT JOIN members m ON m.id = k.member_id WHERE k.hash = $1`,
      [keyHash],
    );
    if (!row) return undefined;
    const { member_id: _m, agent: _a, grants: _g, ...member } = row;
    // The member is read with the key: gone when the join found none.
    return principalOfKey(row, () => (member.id === null || member.id === undefined ? undefined : (member as MemberRow)));
  }

  async members(): Promise<readonly MemberRow[]> {
    const snapshot = await this.current();
    snapshot.members ??= rowsOf<MemberRow>(this.pool, `SELECT ${SELECTED} FROM members ORDER BY created_at, name`);
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
      this.judged = { rows, members: judgedMembers(rows, keys) };
    }
    return this.judged.members;
  }

  /** The members as last read by judgedMembers (none before the first read). */
  judgedMembersSeen(): readonly Member[] {
    return this.judged?.members ?? [];
  }

  async findMember(idOrName: string): Promise<MemberRow | undefined> {
    const [row] = await rowsOf<MemberRow>(this.pool, `SELECT ${SELECTED} FROM members WHERE id = $1 OR name = $1`, [idOrName]);
    return row;
  }

  async createMember(name: string, role: Role, now = new Date()): Promise<MemberRow> {
    const row = newMemberRow(name, role, now);
    await rowsOf(
      this.pool,
      `INSERT INTO members (${SELECTED}) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      MEMBER_COLUMNS.map((c) => row[c]),
    );
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
