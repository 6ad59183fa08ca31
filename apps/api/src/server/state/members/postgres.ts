// Members and keys on PostgreSQL, as sqlite.ts keeps them in SQLite (model.ts defines them, credentials.ts makes
// them): principals and members are cached (auth-cache.ts) while the auth generation stands still (a trigger
// moves it on any change from any node; it is read at most once per turn of the event loop), so a revoked key or
// a changed role counts on the next call whichever node made the change.
import type { Member } from '@tollgate/engine';
import { inTransaction } from '@tollgate/store';
import type pg from 'pg';
import { identityChangeBody, identityChangeOf } from '../../record/entries.ts';
import type { PostgresRecord } from '../../record/postgres.ts';
import type { PageKey } from '../keyset.ts';
import { pageOf } from '../keyset.ts';
import { type Queryable, rowsOf, type TurnRead } from '../postgres-query.ts';
import { POSTGRES_MARK } from '../statement.ts';
import { AuthSnapshot } from './auth-cache.ts';
import {
  CHANGES_SELECT,
  changeOf,
  holderOf,
  KEY_INFO_SELECT,
  keyFilterSql,
  keyInfoOf,
  noCredential,
  noKey,
  noMember,
  type Plan,
  planNewKey,
  planNewMember,
  planRemoval,
  planRevocation,
  planRoleChange,
  planRotation,
  readGrants,
  statementOf,
} from './changes.ts';
import { planCredentialRevocation, planEnrollment } from './credential-changes.ts';
import { CREDENTIALS_SELECT, type CredentialRow, credentialOf, credentialsOfQuery, HOLDERS_SQL } from './credential-model.ts';
import { hashKey, newKey, newMemberRow } from './credentials.ts';
import { type CustodialKeys, sealingOf } from './custodial-keys.ts';
import { type IdentityStore, type KeyFilter, type KeyRequest, type Outcome, UseNotes } from './identity-store.ts';
import type { Actor, KeyInfo, Refusal } from './lifecycle.ts';
import {
  authenticationAt,
  type JudgedMembers,
  judgedBoth,
  type KeyAuthentication,
  type KeyRow,
  type KeyStanding,
  MEMBER_COLUMNS,
  type MemberKeyRow,
  type MemberRow,
  type Role,
  standingOfKey,
} from './model.ts';

const SELECTED = MEMBER_COLUMNS.join(', ');

export class PostgresMembers implements IdentityStore {
  private readonly pool: pg.Pool;
  private readonly generation: TurnRead;
  private snapshot = new AuthSnapshot<Promise<MemberRow[]>>(-1);
  private judged: { rows: readonly MemberRow[]; members: JudgedMembers } | undefined;
  private readonly uses = new UseNotes();

  /** `generation`: the auth generation, read at most once per turn (TurnGenerations). */
  /** @param record the node's record, each change chained in its transaction (docs/audit.md). */
  constructor(
    pool: pg.Pool,
    generation: TurnRead,
    private readonly record: PostgresRecord,
    private readonly custodial: CustodialKeys,
  ) {
    this.pool = pool;
    this.generation = generation;
  }

  /** The snapshot to read from: a read finished after a change lands in the snapshot it began with, not the new one. */
  private async current(): Promise<AuthSnapshot<Promise<MemberRow[]>>> {
    const generation = await this.generation.read();
    if (generation !== this.snapshot.generation) this.snapshot = new AuthSnapshot(generation);
    return this.snapshot;
  }

  /** A key checked at `now`, as sqlite.ts's authenticateKey checks it; undefined for no key. */
  async authenticateKey(key: string, now: Date): Promise<KeyAuthentication | undefined> {
    const snapshot = await this.current();
    const keyHash = hashKey(key);
    let standing = snapshot.standing(keyHash);
    if (standing === undefined) standing = snapshot.remember(keyHash, await this.readStanding(keyHash)) ?? null;
    return standing === null ? undefined : authenticationAt(standing, now);
  }

  private async readStanding(keyHash: string): Promise<KeyStanding | undefined> {
    const [row] = await rowsOf<KeyRow & { member: MemberRow | null }>(
      this.pool,
      `SELECT k.id, k.member_id, k.agent, k.grants, k.expires_at, k.revoked_at,
         CASE WHEN m.id IS NULL THEN NULL ELSE json_build_object(${MEMBER_COLUMNS.map((c) => `'${c}', m.${c}`).join(', ')}) END AS member
       FROM api_keys k LEFT JOIN members m ON m.id = k.member_id WHERE k.hash = $1`,
      [keyHash],
    );
    // The member is read with the key: gone when the join found none.
    return row && standingOfKey(row, () => row.member ?? undefined);
  }

  async members(): Promise<readonly MemberRow[]> {
    const snapshot = await this.current();
    snapshot.members ??= rowsOf<MemberRow>(this.pool, `SELECT ${SELECTED} FROM members WHERE removed_at IS NULL ORDER BY created_at, name`);
    try {
      return await snapshot.members;
    } catch (err) {
      snapshot.members = undefined;
      throw err;
    }
  }

  /** The members as rules judge approvers (sqlite.ts, judgedMembers): the same array while they are unchanged. */
  async judgedMembers(requireMemberKeys = false): Promise<readonly Member[]> {
    const rows = await this.members();
    if (this.judged?.rows !== rows) {
      const [keys, holders] = await Promise.all([
        rowsOf<MemberKeyRow>(this.pool, 'SELECT member_id, grants FROM api_keys WHERE member_id IS NOT NULL AND revoked_at IS NULL'),
        rowsOf<{ member_id: string }>(this.pool, HOLDERS_SQL),
      ]);
      this.judged = { rows, members: judgedBoth(rows, keys, holders) };
    }
    return requireMemberKeys ? this.judged.members.holding : this.judged.members.all;
  }

  /** The members as last read by judgedMembers (none before the first read). */
  judgedMembersSeen(): readonly Member[] {
    return this.judged?.members.all ?? [];
  }

  async findMember(idOrName: string): Promise<MemberRow | undefined> {
    const [row] = await rowsOf<MemberRow>(this.pool, `SELECT ${SELECTED} FROM members WHERE id = $1 OR name = $1`, [idOrName]);
    return row;
  }

  async countMembers(): Promise<number> {
    const [row] = await rowsOf<{ n: number }>(this.pool, 'SELECT count(*) AS n FROM members');
    return row?.n ?? 0;
  }

  /** Reads, judges and writes in one transaction; the auth generation's trigger tells every node. */
  private async change<T>(work: (client: Queryable) => Promise<{ plan: Plan; answer: () => Promise<T> }>): Promise<Outcome<T>> {
    // The change and its record's entry in one transaction, on this node's chain (docs/audit.md).
    const outcome = await this.record.inChainedTransaction(async (client, append): Promise<Outcome<T>> => {
      // The owners' rows locked first, in one order, so two changes that could each leave the last owner wait
      // for each other and the second sees the first's.
      await client.query("SELECT id FROM members WHERE role = 'owner' AND removed_at IS NULL ORDER BY id FOR UPDATE");
      const { plan, answer } = await work(client);
      if ('refusal' in plan) return plan;
      for (const write of plan.writes) {
        const { sql, params } = statementOf(write, POSTGRES_MARK);
        if (write.kind === 'record') {
          const [row] = await rowsOf<{ seq: number }>(client, `${sql} RETURNING seq`, params);
          const change = identityChangeOf(Number(row?.seq), params);
          append('identity.changed', change.at, String(change.seq), identityChangeBody(change));
        } else {
          await client.query(sql, params);
        }
      }
      return { ok: await answer() };
    });
    this.generation.stale();
    return outcome;
  }

  private async owners(on: Queryable): Promise<number> {
    const [row] = await rowsOf<{ n: number }>(on, "SELECT count(*) AS n FROM members WHERE role = 'owner' AND removed_at IS NULL");
    return row?.n ?? 0;
  }

  private async member(on: Queryable, idOrName: string): Promise<MemberRow | undefined> {
    const [row] = await rowsOf<MemberRow>(on, `SELECT ${SELECTED} FROM members WHERE id = $1 OR name = $1`, [idOrName]);
    return row;
  }

  private async currentMember(on: Queryable, idOrName: string): Promise<MemberRow | { refusal: Refusal }> {
    const row = await this.member(on, idOrName);
    return row && row.removed_at === null ? row : { refusal: noMember(idOrName) };
  }

  async addMember(name: string, role: Role, actor: Actor, now = new Date()) {
    const fresh = newMemberRow(name, role, now, this.custodial);
    return this.change(async (on) => {
      const existing = await this.member(on, name);
      const plan = planNewMember(actor, fresh, existing?.name === name ? existing : undefined, now);
      return { plan, answer: async () => (await this.member(on, name)) as MemberRow };
    });
  }

  async setMemberRole(member: string, role: Role, actor: Actor, now = new Date()) {
    return this.change(async (on) => {
      const target = await this.currentMember(on, member);
      if ('refusal' in target) return { plan: target, answer: never };
      const keys = await rowsOf<{ id: string; grants: string }>(
        on,
        'SELECT id, grants FROM api_keys WHERE member_id = $1 AND revoked_at IS NULL',
        [target.id],
      );
      const grants = keys.map((k) => ({ id: k.id, grants: readGrants(k.grants) }));
      const plan = planRoleChange(actor, target, role, await this.owners(on), grants, now);
      return { plan, answer: async () => (await this.member(on, target.id)) as MemberRow };
    });
  }

  async removeMember(member: string, actor: Actor, now = new Date()) {
    return this.change(async (on) => {
      const target = await this.currentMember(on, member);
      if ('refusal' in target) return { plan: target, answer: never };
      return {
        plan: planRemoval(actor, target, await this.owners(on), now),
        answer: async () => (await this.member(on, target.id)) as MemberRow,
      };
    });
  }

  async issueKey(request: KeyRequest, actor: Actor, now = new Date()) {
    const { key, fresh } = newKey();
    return this.change(async (on) => {
      const found = 'member' in request.holder ? await this.member(on, request.holder.member) : undefined;
      const holder = holderOf(request, () => found);
      if ('refusal' in holder) return { plan: holder, answer: never };
      const plan = planNewKey(actor, { ...request, holder }, fresh, now);
      return { plan, answer: async () => ({ key, info: (await this.keyInfo(on, fresh.id)) as KeyInfo }) };
    });
  }

  async rotateKey(id: string, overlapSeconds: number, expiresAt: string | null, actor: Actor, now = new Date()) {
    const { key, fresh } = newKey();
    return this.change(async (on) => {
      const old = await this.keyInfo(on, id, true);
      if (!old) return { plan: { refusal: noKey(id) }, answer: never };
      const plan = planRotation(actor, old, overlapSeconds, expiresAt, fresh, now);
      return {
        plan,
        answer: async () => ({
          key,
          info: (await this.keyInfo(on, fresh.id)) as KeyInfo,
          previous: (await this.keyInfo(on, id)) as KeyInfo,
        }),
      };
    });
  }

  async revokeKey(id: string, actor: Actor, now = new Date()) {
    return this.change(async (on) => {
      const old = await this.keyInfo(on, id, true);
      if (!old) return { plan: { refusal: noKey(id) }, answer: never };
      return { plan: planRevocation(actor, old, now), answer: async () => (await this.keyInfo(on, id)) as KeyInfo };
    });
  }

  /** A key as the lists show it; `lock` holds its row until the transaction ends (a rotation or revocation). */
  private async keyInfo(on: Queryable, id: string, lock = false): Promise<KeyInfo | undefined> {
    const [row] = await rowsOf<Parameters<typeof keyInfoOf>[0]>(on, `${KEY_INFO_SELECT} WHERE k.id = $1${lock ? ' FOR UPDATE OF k' : ''}`, [
      id,
    ]);
    return row && keyInfoOf(row);
  }

  findKey(id: string) {
    return this.keyInfo(this.pool, id);
  }

  async listKeys(filter: KeyFilter) {
    const { sql: where, params } = keyFilterSql(filter, POSTGRES_MARK);
    const rows = await rowsOf<Parameters<typeof keyInfoOf>[0]>(this.pool, `${KEY_INFO_SELECT}${where} ORDER BY k.created_at, k.id`, params);
    return rows.map(keyInfoOf);
  }

  async listChanges(limit: number, after?: PageKey) {
    const rows = after
      ? await rowsOf(this.pool, `${CHANGES_SELECT} WHERE (at, seq) < ($1, $2) ORDER BY at DESC, seq DESC LIMIT $3`, [
          after.createdAt,
          after.rowid,
          limit + 1,
        ])
      : await rowsOf(this.pool, `${CHANGES_SELECT} ORDER BY at DESC, seq DESC LIMIT $1`, [limit + 1]);
    const page = pageOf(rows as (Parameters<typeof changeOf>[0] & { row_key: number })[], limit);
    return { ...page, rows: page.rows.map(changeOf) };
  }

  /** Seals plain custodial keys, as sqlite.ts's sealPlainKeys does, in one transaction (a node racing it seals alike). */
  async sealPlainKeys(): Promise<void> {
    const rows = await rowsOf<{ id: string; private_key: string }>(this.pool, 'SELECT id, private_key FROM members');
    const writes = sealingOf(rows, this.custodial);
    if (writes.length === 0) return;
    await inTransaction(this.pool, async (client) => {
      for (const w of writes)
        await client.query("UPDATE members SET private_key = $1 WHERE id = $2 AND private_key LIKE '-----BEGIN PRIVATE KEY-----%'", [
          w.private_key,
          w.id,
        ]);
    });
  }

  async enrollCredential(member: string, fresh: CredentialRow, actor: Actor, now = new Date()) {
    return this.change(async (on) => {
      const target = await this.currentMember(on, member);
      if ('refusal' in target) return { plan: target, answer: never };
      const held = await this.credentialsOf(on, target.id);
      const plan = planEnrollment(actor, target, fresh, held, (await this.credential(on, fresh.id)) !== undefined, now);
      return { plan, answer: async () => (await this.credential(on, fresh.id)) as CredentialRow };
    });
  }

  async revokeCredential(member: string, credential: string, actor: Actor, now = new Date()) {
    return this.change(async (on) => {
      const target = await this.member(on, member);
      const row = await this.credential(on, credential, true);
      if (!target || !row || row.member_id !== target.id) return { plan: { refusal: noCredential(credential) }, answer: never };
      return {
        plan: planCredentialRevocation(actor, target, row, now),
        answer: async () => (await this.credential(on, credential)) as CredentialRow,
      };
    });
  }

  private async credentialsOf(on: Queryable, memberId: string): Promise<CredentialRow[]> {
    const { sql, params } = credentialsOfQuery(memberId, POSTGRES_MARK);
    return (await rowsOf<CredentialRow>(on, sql, params)).map(credentialOf);
  }

  private async credential(on: Queryable, id: string, lock = false): Promise<CredentialRow | undefined> {
    const [row] = await rowsOf<CredentialRow>(on, `${CREDENTIALS_SELECT} WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [id]);
    return row && credentialOf(row);
  }

  listCredentials(memberId: string) {
    return this.credentialsOf(this.pool, memberId);
  }

  findCredential(id: string) {
    return this.credential(this.pool, id);
  }

  noteKeyUsed(keyId: string, now: Date): void {
    if (!this.uses.due(keyId, now)) return;
    // When a key was last used is for people to read: off the call's path, and a failed write fails nothing.
    rowsOf(
      this.pool,
      'INSERT INTO key_usage (key_id, last_used_at) VALUES ($1, $2) ON CONFLICT (key_id) DO UPDATE SET last_used_at = excluded.last_used_at',
      [keyId, now.toISOString()],
    ).catch(() => {});
  }
}

/** The answer of a plan that is a refusal: never asked for. */
async function never(): Promise<never> {
  throw new Error('a refused change has no answer');
}
