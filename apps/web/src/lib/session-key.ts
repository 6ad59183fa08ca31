// The signed-in member's key, kept in sessionStorage for the tab's session only.
const STORAGE_KEY = 'tollgate.member-key';

/** The key in use, or null when nobody is signed in. Example: `readSessionKey() ?? 'signed out'`. */
export function readSessionKey(): string | null {
  return sessionStorage.getItem(STORAGE_KEY);
}

/** Keeps `key` for this session. */
export function writeSessionKey(key: string): void {
  sessionStorage.setItem(STORAGE_KEY, key);
}

/** Forgets the key (sign out). */
export function clearSessionKey(): void {
  sessionStorage.removeItem(STORAGE_KEY);
}
