// A yes/no preference kept in localStorage (the documents tree shown or hidden), read once and written on change.
import { useCallback, useState } from 'react';

function readFlag(key: string, fallback: boolean): boolean {
  try {
    const stored = window.localStorage.getItem(key);
    return stored === null ? fallback : stored === 'true';
  } catch {
    // Storage refused (a private window's quota, a blocked origin): the preference lasts as long as the page.
    return fallback;
  }
}

/** Example: `const [open, setOpen] = useStoredFlag('tollgate.documents.tree-open', true)`. */
export function useStoredFlag(key: string, fallback: boolean): [boolean, (next: boolean) => void] {
  const [flag, setFlag] = useState(() => readFlag(key, fallback));
  const set = useCallback(
    (next: boolean) => {
      setFlag(next);
      try {
        window.localStorage.setItem(key, String(next));
      } catch {
        // Not kept; the page still follows it.
      }
    },
    [key],
  );
  return [flag, set];
}
