// What each store remembers of keys and members for the hot path (every gate call authenticates and lists the
// approvers), trusted only while the auth generation stands still: a trigger moves it on any change to members or
// api_keys, from any connection or node, so a revoked key or a changed role counts on the next call. Each store
// reads the generation its own way, at most once per turn of the event loop (sqlite.ts, postgres.ts), and starts
// a new snapshot when it moved.
import type { KeyStanding, MemberRow } from './model.ts';

/** At most this many keys are remembered; past it the cache starts again (keys are few in practice). */
const MAX_KEYS = 10_000;

/**
 * What was read while the generation stood at `generation`; a change replaces the whole object, so a read
 * finished after a change lands in the snapshot it began with, not the new one. `Members` is the member list as
 * the store holds it (PostgreSQL's, the read in flight).
 */
export class AuthSnapshot<Members = readonly MemberRow[]> {
  readonly generation: number;
  /** Key hash -> the key's standing, or null for a hash no key has (so a wrong key costs no read either). */
  private readonly standings = new Map<string, KeyStanding | null>();
  members: Members | undefined;

  constructor(generation: number) {
    this.generation = generation;
  }

  /**
   * The standing remembered for a key's hash (credentials.ts): null when no key has it, undefined when unread. A
   * standing, not an answer: a key's expiry is checked at each use (model.ts, authenticationAt).
   */
  standing(keyHash: string): KeyStanding | null | undefined {
    return this.standings.get(keyHash);
  }

  /** Remembers what a key's hash was read as, and answers it. */
  remember(keyHash: string, standing: KeyStanding | undefined): KeyStanding | undefined {
    if (this.standings.size >= MAX_KEYS) this.standings.clear();
    this.standings.set(keyHash, standing ?? null);
    return standing;
  }
}
