// The signed-in member's key, kept in localStorage so every tab of this origin shares one sign-in
// (docs/console.md, "Signing in"); signing out in one tab signs every tab out through the storage event.
const STORAGE_KEY = 'tollgate.member-key';

/** The key in use, or null when nobody is signed in. Example: `readSessionKey() ?? 'signed out'`. */
export function readSessionKey(): string | null {
  return localStorage.getItem(STORAGE_KEY);
}

/** Keeps `key` for this origin's tabs. */
export function writeSessionKey(key: string): void {
  localStorage.setItem(STORAGE_KEY, key);
}

/** Forgets the key (sign out), in every tab. */
export function clearSessionKey(): void {
  localStorage.removeItem(STORAGE_KEY);
}

/**
 * Calls `onChange` with the key whenever another tab signs in or out; answers the unsubscribe.
 * Example: `useEffect(() => followSessionKey(setKey), [])`.
 */
export function followSessionKey(onChange: (key: string | null) => void): () => void {
  const follow = (event: StorageEvent) => {
    // A null key means the whole storage was cleared.
    if (event.key === STORAGE_KEY || event.key === null) onChange(readSessionKey());
  };
  window.addEventListener('storage', follow);
  return () => window.removeEventListener('storage', follow);
}
