// Moves focus to the page's main heading (its h1, tabIndex -1) after an in-app navigation, so a keyboard or screen
// reader starts at the new page rather than on the link that led there (docs/console.md, "Keyboard").
import { useEffect, useRef } from 'react';
import type { Route } from './router.ts';

/** How long a lazily loaded page may take to show its heading before the focus stays where it is. */
const WAIT_MS = 10_000;

/**
 * Focuses `main`'s h1 once it is in the document, and is not `stale` (a lazily loaded page may leave the previous
 * page on screen until it arrives); answers a cancel.
 */
export function focusMainHeading(stale: Element | null = null): () => void {
  const main = document.querySelector('main');
  if (main === null) return () => {};
  const tryFocus = (): boolean => {
    const heading = main.querySelector<HTMLElement>('h1');
    if (heading === null || heading === stale) return false;
    heading.focus();
    return true;
  };
  if (tryFocus()) return () => {};
  const observer = new MutationObserver(() => {
    if (tryFocus()) stop();
  });
  const timer = window.setTimeout(() => stop(), WAIT_MS);
  // A person who moves the focus while the page loads keeps it there.
  const stop = () => {
    observer.disconnect();
    window.clearTimeout(timer);
    document.removeEventListener('focusin', stop);
  };
  observer.observe(main, { childList: true, subtree: true });
  document.addEventListener('focusin', stop);
  return stop;
}

/** The part of a route that makes it another page: a document picked in a list or a tab keeps the focus where it is. */
function pageOf(route: Route): string {
  if (route.page === 'edit' || route.page === 'history' || route.page === 'rules') return `${route.page} ${route.document}`;
  return route.page;
}

/**
 * Focuses the main heading whenever the page changes, and when `signedIn` turns true; never on the first load, and
 * never while signed out, where the sign-in form keeps the focus on its key field.
 */
export function useFocusHeadingOnNavigate(route: Route, signedIn: boolean): void {
  const page = `${pageOf(route)} ${signedIn}`;
  const first = useRef(true);
  // The heading on screen when the page changed: rendering has not reached the document yet, so it is the old page's.
  const shown = useRef({ page, stale: null as Element | null });
  if (shown.current.page !== page) shown.current = { page, stale: document.querySelector('main h1') };
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (!signedIn) return;
    return focusMainHeading(shown.current.stale);
  }, [page, signedIn]);
}
