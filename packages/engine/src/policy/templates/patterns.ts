// Action-pattern helpers for templates: overlap between patterns, and an action a pattern matches.
import { MAX_PATTERN_LENGTH, matchesAction, RESERVED_NAMESPACE } from '../pattern.ts';

/**
 * Can one action match both well-formed patterns.
 *
 * @example
 * patternsOverlap('orders.*', 'orders.read') // true
 * patternsOverlap('orders.*', 'orders') // false
 */
export function patternsOverlap(a: string, b: string): boolean {
  if (a === '*' || b === '*') return true;
  const aWild = a.endsWith('.*');
  const bWild = b.endsWith('.*');
  if (aWild && bWild) {
    const pa = a.slice(0, -1);
    const pb = b.slice(0, -1);
    return pa.startsWith(pb) || pb.startsWith(pa);
  }
  if (aWild) return matchesAction(a, b);
  if (bWild) return matchesAction(b, a);
  return a === b;
}

/** An action a pattern (not `*` alone) matches, for example calls: `orders.*` gives `orders.read`. */
export function actionFor(pattern: string, segment = 'read'): string {
  if (!pattern.endsWith('.*')) return pattern;
  const prefix = pattern.slice(0, -1);
  return prefix.length + segment.length <= MAX_PATTERN_LENGTH ? prefix + segment : `${prefix}x`;
}

/**
 * The first candidate action no pattern matches, else a numbered `unlisted-N.write`: each pattern other
 * than `*` alone matches at most one of those, so one is always free.
 */
export function unmatchedAction(patterns: readonly string[], candidates: readonly string[]): string {
  const free = (action: string): boolean => !action.startsWith(RESERVED_NAMESPACE) && !patterns.some((p) => matchesAction(p, action));
  for (const action of candidates) if (free(action)) return action;
  for (let n = 1; n <= patterns.length + 1; n++) {
    const action = `unlisted-${n}.write`;
    if (free(action)) return action;
  }
  throw new Error('"*" alone matches every action; templates never use it');
}
