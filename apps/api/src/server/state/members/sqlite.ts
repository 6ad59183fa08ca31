// Members and API keys in SQLite (model.ts defines them, credentials.ts makes them), and the cache of them the hot
// path reads (auth-cache.ts): the generation is one read of one row, which sees other connections' writes (the
// CLI's, a person's sqlite3), at most once per turn of the event loop (sqlite-turn-read.ts).
import type { Member } from '@tollgate/engine';
import { identityChangeBody, identityChangeOf } from '../../record/entries.ts';
import type { SqliteRecord } from '../../record/sqlite.ts';
import type { Db } from '../db.ts';
import type { PageKey } from '../keyset.ts';
import { pageOf } from '../keyset.ts';
import { turnRead } from '../sqlite-turn-read.ts';
import { SQLITE_MARK } from '../statement.ts';
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
import { CREDENTIALS_SELECT, type CredentialRow, credentialsOfQuery, HOLDERS_SQL } from './credential-model.ts';
import { hashKey, newKey, newMemberRow } from './credentials.ts';
import { type CustodialKeys, sealingOf } from './custodial-keys.ts';
import { type IdentityStore, type KeyFilter, type KeyRequest, type Outcome, UseNotes } from './identity-store.ts';
import type { Actor, KeyInfo, Refusal } from './lifecycle.ts';
import {
  authenticationAt,
  type Grant,
  type JudgedMembers,
  judgedBoth,
  type KeyAuthentication,
  type KeyRow,
  type KeyStanding,
  type MemberKeyRow,
  type MemberRow,
  type Role,
  standingOfKey,
} from './model.ts';

/** The principal standing a key's hash names, or undefined for no key. */
function readStanding(db: Db, keyHash: string): KeyStanding | undefined {
  const row = db.prepare('SELECT id, member_id, agent, grants, expires_at, revoked_at FROM api_keys WHERE hash = ?').get(keyHash) as
    | KeyRow
    | undefined;
  return row && standingOfKey(row, (id) => findMember(db, id));
}

export function findMember(db: Db, idOrName: string): MemberRow | undefined {
  return db.prepare('SELECT * FROM members WHERE id = ? OR name = ?').get(idOrName, idOrName) as MemberRow | undefined;
}

/** The current members (a removed one's row stays, but they are no member). */
export function listMembers(db: Db): MemberRow[] {
  return db.prepare('SELECT * FROM members WHERE removed_at IS NULL ORDER BY created_at, name').all() as MemberRow[];
}

const snapshots = new WeakMap<Db, AuthSnapshot>();

function snapshotOf(db: Db): AuthSnapshot {
  const generation = turnRead(db).read('auth');
  let snapshot = snapshots.get(db);
  if (snapshot === undefined || snapshot.generation !== generation) {
    snapshot = new AuthSnapshot(generation);
    snapshots.set(db, snapshot);
  }
  return snapshot;
}

/**
 * A key checked at `now`: the principal it acts as, or why it is refused (revoked, expired, its member removed);
 * undefined for no key. The standing is remembered by the key's hash while nothing changes (auth-cache.ts).
 *
 * @example
 * const auth = authenticateKey(ctx.db, 'tg_...', new Date()); // undefined for an unknown key
 */
export function authenticateKey(db: Db, key: string, now: Date): KeyAuthentication | undefined {
  const snapshot = snapshotOf(db);
  const keyHash = hashKey(key);
  let standing = snapshot.standing(keyHash);
  if (standing === undefined) standing = snapshot.remember(keyHash, readStanding(db, keyHash)) ?? null;
  return standing === null ? undefined : authenticationAt(standing, now);
}

/** Every member, as `listMembers` reads them; the same array while nothing changed (do not mutate it). */
export function members(db: Db): readonly MemberRow[] {
  const snapshot = snapshotOf(db);
  snapshot.members ??= listMembers(db);
  return snapshot.members;
}

const judgedByRows = new WeakMap<readonly MemberRow[], JudgedMembers>();

/**
 * The members as rules judge approvers (model.ts, judgedMembers), from the members cache: the same array while
 * they are unchanged, so a gate call allocates none. `requireMemberKeys` (the setting approvals_require_member_keys)
 * counts only members who hold a key of their own as signing.
 */
export function judgedMembers(db: Db, requireMemberKeys = false): readonly Member[] {
  const rows = members(db);
  let judged = judgedByRows.get(rows);
  if (!judged) {
    const keys = db
      .prepare('SELECT member_id, grants FROM api_keys WHERE member_id IS NOT NULL AND revoked_at IS NULL')
      .all() as MemberKeyRow[];
    const holders = db.prepare(HOLDERS_SQL).all() as { member_id: string }[];
    judged = judgedBoth(rows, keys, holders);
    judgedByRows.set(rows, judged);
  }
  return requireMemberKeys ? judged.holding : judged.all;
}

/**
 * Seals every custodial key stored in plain text (by a version before keys were sealed), in one transaction;
 * throws SecretMismatchError, writing nothing, when the secret does not open the keys sealed already.
 */
export function sealPlainKeys(db: Db, custodial: CustodialKeys): void {
  const rows = db.prepare('SELECT id, private_key FROM members').all() as { id: string; private_key: string }[];
  const writes = sealingOf(rows, custodial);
  if (writes.length === 0) return;
  const update = db.prepare('UPDATE members SET private_key = ? WHERE id = ?');
  db.transaction(() => {
    for (const w of writes) update.run(w.private_key, w.id);
  })();
}

/** How many members there are, removed ones included (the demo seeds a workspace that never had one). */
export function countMembers(db: Db): number {
  return (db.prepare('SELECT COUNT(*) AS n FROM members').get() as { n: number }).n;
}

/** Members and keys as the product manages them (identity-store.ts), each change one transaction. */
export class SqliteIdentity implements IdentityStore {
  private readonly db: Db;
  private readonly uses = new UseNotes();

  /** @param record the record each change is chained to, in its transaction (docs/audit.md). */
  constructor(
    db: Db,
    private readonly record: SqliteRecord,
    private readonly custodial: CustodialKeys,
  ) {
    this.db = db;
  }

  /** Reads, judges and writes in one transaction, with the record of the change chained: a plan refused writes nothing. */
  private change<T>(work: () => { plan: Plan; answer: () => T }): Outcome<T> {
    return this.record.around((add) =>
      this.db
        .transaction((): Outcome<T> => {
          const { plan, answer } = work();
          if ('refusal' in plan) return plan;
          for (const write of plan.writes) {
            const { sql, params } = statementOf(write, SQLITE_MARK);
            const { lastInsertRowid } = this.db.prepare(sql).run(...params);
            if (write.kind === 'record') {
              const change = identityChangeOf(Number(lastInsertRowid), params);
              add('identity.changed', change.at, String(change.seq), identityChangeBody(change));
            }
          }
          return { ok: answer() };
        })
        .immediate(),
    );
  }

  private owners(): number {
    return (this.db.prepare("SELECT COUNT(*) AS n FROM members WHERE role = 'owner' AND removed_at IS NULL").get() as { n: number }).n;
  }

  private member(idOrName: string): MemberRow | undefined {
    return findMember(this.db, idOrName);
  }

  async addMember(name: string, role: Role, actor: Actor, now = new Date()) {
    const fresh = newMemberRow(name, role, now, this.custodial);
    return this.change(() => {
      const existing = this.member(name);
      return {
        plan: planNewMember(actor, fresh, existing?.name === name ? existing : undefined, now),
        answer: () => this.member(name) as MemberRow,
      };
    });
  }

  async setMemberRole(member: string, role: Role, actor: Actor, now = new Date()) {
    return this.change(() => {
      const target = this.current(member);
      if ('refusal' in target) return { plan: target, answer: () => undefined as never };
      const keys = this.memberKeys(target.id);
      return { plan: planRoleChange(actor, target, role, this.owners(), keys, now), answer: () => this.member(target.id) as MemberRow };
    });
  }

  async removeMember(member: string, actor: Actor, now = new Date()) {
    return this.change(() => {
      const target = this.current(member);
      if ('refusal' in target) return { plan: target, answer: () => undefined as never };
      return { plan: planRemoval(actor, target, this.owners(), now), answer: () => this.member(target.id) as MemberRow };
    });
  }

  /** A current member by id or name, or the refusal that names none. */
  private current(idOrName: string): MemberRow | { refusal: Refusal } {
    const row = this.member(idOrName);
    return row && row.removed_at === null ? row : { refusal: noMember(idOrName) };
  }

  private memberKeys(memberId: string): { id: string; grants: Grant[] }[] {
    const rows = this.db.prepare('SELECT id, grants FROM api_keys WHERE member_id = ? AND revoked_at IS NULL').all(memberId) as {
      id: string;
      grants: string;
    }[];
    return rows.map((r) => ({ id: r.id, grants: readGrants(r.grants) }));
  }

  async issueKey(request: KeyRequest, actor: Actor, now = new Date()) {
    const { key, fresh } = newKey();
    return this.change(() => {
      const holder = holderOf(request, (m) => this.member(m));
      if ('refusal' in holder) return { plan: holder, answer: () => undefined as never };
      const plan = planNewKey(actor, { ...request, holder }, fresh, now);
      return { plan, answer: () => ({ key, info: this.keyInfo(fresh.id) as KeyInfo }) };
    });
  }

  async rotateKey(id: string, overlapSeconds: number, expiresAt: string | null, actor: Actor, now = new Date()) {
    const { key, fresh } = newKey();
    return this.change(() => {
      const old = this.keyInfo(id);
      if (!old) return { plan: { refusal: noKey(id) }, answer: () => undefined as never };
      const plan = planRotation(actor, old, overlapSeconds, expiresAt, fresh, now);
      return { plan, answer: () => ({ key, info: this.keyInfo(fresh.id) as KeyInfo, previous: this.keyInfo(id) as KeyInfo }) };
    });
  }

  async revokeKey(id: string, actor: Actor, now = new Date()) {
    return this.change(() => {
      const old = this.keyInfo(id);
      if (!old) return { plan: { refusal: noKey(id) }, answer: () => undefined as never };
      return { plan: planRevocation(actor, old, now), answer: () => this.keyInfo(id) as KeyInfo };
    });
  }

  private keyInfo(id: string): KeyInfo | undefined {
    const row = this.db.prepare(`${KEY_INFO_SELECT} WHERE k.id = ?`).get(id) as Parameters<typeof keyInfoOf>[0] | undefined;
    return row && keyInfoOf(row);
  }

  async findKey(id: string) {
    return this.keyInfo(id);
  }

  async listKeys(filter: KeyFilter) {
    const { sql: where, params } = keyFilterSql(filter, SQLITE_MARK);
    const rows = this.db.prepare(`${KEY_INFO_SELECT}${where} ORDER BY k.created_at, k.id`).all(...params) as Parameters<
      typeof keyInfoOf
    >[0][];
    return rows.map(keyInfoOf);
  }

  async listChanges(limit: number, after?: PageKey) {
    const rows = after
      ? this.db
          .prepare(`${CHANGES_SELECT} WHERE (at, seq) < (?, ?) ORDER BY at DESC, seq DESC LIMIT ?`)
          .all(after.createdAt, after.rowid, limit + 1)
      : this.db.prepare(`${CHANGES_SELECT} ORDER BY at DESC, seq DESC LIMIT ?`).all(limit + 1);
    const page = pageOf(rows as (Parameters<typeof changeOf>[0] & { row_key: number })[], limit);
    return { ...page, rows: page.rows.map(changeOf) };
  }

  async enrollCredential(member: string, fresh: CredentialRow, actor: Actor, now = new Date()) {
    return this.change(() => {
      const target = this.current(member);
      if ('refusal' in target) return { plan: target, answer: () => undefined as never };
      const held = this.credentialsOf(target.id);
      const plan = planEnrollment(actor, target, fresh, held, this.credential(fresh.id) !== undefined, now);
      return { plan, answer: () => this.credential(fresh.id) as CredentialRow };
    });
  }

  async revokeCredential(member: string, credential: string, actor: Actor, now = new Date()) {
    return this.change(() => {
      const target = this.member(member);
      const row = this.credential(credential);
      if (!target || !row || row.member_id !== target.id)
        return { plan: { refusal: noCredential(credential) }, answer: () => undefined as never };
      return { plan: planCredentialRevocation(actor, target, row, now), answer: () => this.credential(credential) as CredentialRow };
    });
  }

  private credentialsOf(memberId: string): CredentialRow[] {
    const { sql, params } = credentialsOfQuery(memberId, SQLITE_MARK);
    return this.db.prepare(sql).all(...params) as CredentialRow[];
  }

  private credential(id: string): CredentialRow | undefined {
    return this.db.prepare(`${CREDENTIALS_SELECT} WHERE id = ?`).get(id) as CredentialRow | undefined;
  }

  async listCredentials(memberId: string) {
    return this.credentialsOf(memberId);
  }

  async findCredential(id: string) {
    return this.credential(id);
  }

  noteKeyUsed(keyId: string, now: Date): void {
    if (!this.uses.due(keyId, now)) return;
    try {
      this.db
        .prepare(
          'INSERT INTO key_usage (key_id, last_used_at) VALUES (?, ?) ON CONFLICT (key_id) DO UPDATE SET last_used_at = excluded.last_used_at',
        )
        .run(keyId, now.toISOString());
    } catch {
      // When a key was last used is for people to read; a busy database never fails the call it came with.
    }
  }
}
