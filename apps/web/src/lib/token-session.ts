// The session of a member signed in through an identity provider (docs/console.md, "Signing in"): the access
// token and when it ends, held in memory and in this tab's sessionStorage only, never localStorage nor a cookie,
// so nothing is sent that this page did not add itself (docs/security.md, "Console sign-in"). The session ends
// with the token: at its expiry, on a 401 TOKEN_EXPIRED, or on sign-out.
import { readJsonText } from '@tollgate/engine/source';

/** An access token in use and the instant (ms since the epoch) it stops being used. */
export interface TokenSession {
  token: string;
  expiresAt: number;
  issuer: string;
}

/** Why a session ended, for the note the sign-in page shows. */
export type SessionEnd = 'expired' | 'signed-out';

const STORAGE_KEY = 'tollgate.token-session';

/** The part of Storage these helpers use, so tests can hand in their own. */
export type SessionStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

let held: TokenSession | null = null;
const listeners = new Set<(end: SessionEnd) => void>();

function store(): SessionStore | null {
  return typeof sessionStorage === 'undefined' ? null : sessionStorage;
}

function objectOf(text: string): Record<string, unknown> | null {
  const read = readJsonText(text);
  return read.ok && typeof read.value === 'object' && read.value !== null && !Array.isArray(read.value)
    ? (read.value as Record<string, unknown>)
    : null;
}

/**
 * The `exp` (seconds) a JWT's payload states, or undefined when the token is not a JWT with a numeric exp. The
 * token is not verified here: the server verifies it on every call; the console reads exp only to stop in time.
 * Example: `jwtExpOf('eyJhbGciOi…')` is 1767225600.
 */
export function jwtExpOf(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (payload === undefined || !/^[A-Za-z0-9_-]+$/.test(payload)) return undefined;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const bytes = Uint8Array.from(atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4)), (c) => c.charCodeAt(0));
    const exp = objectOf(new TextDecoder().decode(bytes))?.exp;
    return typeof exp === 'number' && Number.isFinite(exp) ? exp : undefined;
  } catch {
    return undefined;
  }
}

/**
 * When a token stops being used: the earlier of the token response's `expires_in` (seconds from `now`) and the
 * JWT's own `exp`; null when neither says, as a session without an end is not kept.
 * Example: `expiresAtOf(1_000_000, 3, undefined)` is 1_003_000.
 */
export function expiresAtOf(now: number, expiresIn: number | undefined, jwtExp: number | undefined): number | null {
  const ends: number[] = [];
  if (typeof expiresIn === 'number' && Number.isFinite(expiresIn) && expiresIn > 0) ends.push(now + expiresIn * 1000);
  if (jwtExp !== undefined) ends.push(jwtExp * 1000);
  return ends.length === 0 ? null : Math.min(...ends);
}

/** The session kept in `storage` if it is well formed and not yet ended at `now`; a stale or broken one is removed. */
export function readStoredSession(storage: SessionStore, now: number): TokenSession | null {
  const text = storage.getItem(STORAGE_KEY);
  if (text === null) return null;
  const value = objectOf(text);
  const { token, expiresAt, issuer } = value ?? {};
  if (typeof token === 'string' && token !== '' && typeof expiresAt === 'number' && typeof issuer === 'string' && expiresAt > now) {
    return { token, expiresAt, issuer };
  }
  storage.removeItem(STORAGE_KEY);
  return null;
}

/** The session in use in this tab, or null (none, or it has ended). Example: `readTokenSession()?.token`. */
export function readTokenSession(now = Date.now()): TokenSession | null {
  if (held !== null && held.expiresAt > now) return held;
  const storage = store();
  held = storage === null ? null : readStoredSession(storage, now);
  return held;
}

/** Keeps `session` for this tab: in memory, and in sessionStorage so a reload stays signed in. */
export function writeTokenSession(session: TokenSession, storage: SessionStore | null = store()): void {
  held = session;
  storage?.setItem(STORAGE_KEY, JSON.stringify(session));
}

/** Forgets the session, from memory and storage. */
export function clearTokenSession(storage: SessionStore | null = store()): void {
  held = null;
  storage?.removeItem(STORAGE_KEY);
}

/** Ends the session and tells whoever listens (the shell shows the sign-in page). */
export function endTokenSession(end: SessionEnd): void {
  clearTokenSession();
  for (const listener of listeners) listener(end);
}

/** Calls `listener` when a session ends; answers the unsubscribe. Example: `useEffect(() => onSessionEnd(setEnd), [])`. */
export function onSessionEnd(listener: (end: SessionEnd) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The longest a browser timer waits (2^31 - 1 ms); a longer wait fires at once. */
const MAX_TIMER_MS = 2_147_483_647;

/** How long to wait before ending a session that ends at `expiresAt`: never negative, never past a timer's limit. */
export function msUntil(expiresAt: number, now: number): number {
  return Math.min(Math.max(0, expiresAt - now), MAX_TIMER_MS);
}
