// Members and keys as the product manages them (docs/security.md): each change judged by the rules (lifecycle.ts),
// written with its record in one transaction, by SQLite (sqlite.ts) and PostgreSQL (postgres.ts) alike.
import type { PageKey } from '../keyset.ts';
import type { CredentialRow } from './credential-model.ts';
import type { Actor, IdentityChange, KeyInfo, Refusal } from './lifecycle.ts';
import type { Grant, MemberRow, Role } from './model.ts';

/** A change made, or refused with its code. */
export type Outcome<T> = { ok: T } | { refusal: Refusal };

/** A key asked for: its holder (a member by id or name, or an agent), grants, an optional name and expiry. */
export interface KeyRequest {
  holder: { member: string } | { agent: string };
  grants: Grant[];
  name?: string | null;
  expiresAt?: string | null;
}

/** Which keys a list shows: all, one member's (by id) or one agent's. */
export type KeyFilter = { memberId?: string; agent?: string };

export interface IdentityStore {
  addMember(name: string, role: Role, actor: Actor, now?: Date): Promise<Outcome<MemberRow>>;
  /** `member`: an id or a name. */
  setMemberRole(member: string, role: Role, actor: Actor, now?: Date): Promise<Outcome<MemberRow>>;
  removeMember(member: string, actor: Actor, now?: Date): Promise<Outcome<MemberRow>>;
  /** A new key (shown once: only its hash is kept) and what the lists show of it. */
  issueKey(request: KeyRequest, actor: Actor, now?: Date): Promise<Outcome<{ key: string; info: KeyInfo }>>;
  rotateKey(
    id: string,
    overlapSeconds: number,
    expiresAt: string | null,
    actor: Actor,
    now?: Date,
  ): Promise<Outcome<{ key: string; info: KeyInfo; previous: KeyInfo }>>;
  revokeKey(id: string, actor: Actor, now?: Date): Promise<Outcome<KeyInfo>>;
  findKey(id: string): Promise<KeyInfo | undefined>;
  listKeys(filter: KeyFilter): Promise<KeyInfo[]>;
  /** The record of changes to members and keys, newest first. */
  listChanges(limit: number, after?: PageKey): Promise<{ rows: IdentityChange[]; more: boolean; next: string | null }>;
  /** Enrolls a key the member holds (credential-changes.ts judges it); `member` is an id. */
  enrollCredential(member: string, fresh: CredentialRow, actor: Actor, now?: Date): Promise<Outcome<CredentialRow>>;
  /** Revokes one of a member's credentials; revoking a revoked one changes nothing. */
  revokeCredential(member: string, credential: string, actor: Actor, now?: Date): Promise<Outcome<CredentialRow>>;
  /** A member's credentials, revoked ones included, oldest first. */
  listCredentials(memberId: string): Promise<CredentialRow[]>;
  findCredential(id: string): Promise<CredentialRow | undefined>;
  /** Notes that a key was used (at most once a minute a key, off the caller's path; failures are ignored). */
  noteKeyUsed(keyId: string, now: Date): void;
}

/** How long a key's last use is trusted before it is noted again: last_used_at is to the minute. */
export const USE_NOTE_INTERVAL_MS = 60_000;

/** Remembers when each key's use was last noted, so a busy key writes once a minute, not once a call. */
export class UseNotes {
  private readonly noted = new Map<string, number>();

  /** Whether a use at `now` should be written (and marks it written). */
  due(keyId: string, now: Date): boolean {
    const last = this.noted.get(keyId);
    if (last !== undefined && now.getTime() - last < USE_NOTE_INTERVAL_MS) return false;
    if (this.noted.size >= 10_000) this.noted.clear();
    this.noted.set(keyId, now.getTime());
    return true;
  }
}

/** The operator with the database (the CLI, the demo's seed): what an owner may do, refusals thrown. */
export const OPERATOR: Actor = { kind: 'operator' };

/** What a change made, or an error carrying its refusal's message (for the operator's shortcuts). */
export function madeOrThrow<T>(outcome: Outcome<T>): T {
  if ('refusal' in outcome) throw new Error(`${outcome.refusal.code}: ${outcome.refusal.message}`);
  return outcome.ok;
}
