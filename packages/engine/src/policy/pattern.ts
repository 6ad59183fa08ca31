// Action patterns: dot segments of [a-z0-9_-], an optional final `*` matching one or more remaining
// segments, or `*` alone matching every action.

export const MAX_PATTERN_LENGTH = 128;
export const RESERVED_NAMESPACE = 'tollgate.';

const SEGMENTS = /^[a-z0-9_-]+(?:\.[a-z0-9_-]+)*$/;

/** Is `action` a well-formed action name (no wildcard). */
export function isActionName(action: string): boolean {
  return action.length <= MAX_PATTERN_LENGTH && SEGMENTS.test(action);
}

/** Is `pattern` a well-formed pattern (the reserved namespace is checked separately). */
export function isActionPattern(pattern: string): boolean {
  if (pattern.length === 0 || pattern.length > MAX_PATTERN_LENGTH) return false;
  if (pattern === '*') return true;
  const body = pattern.endsWith('.*') ? pattern.slice(0, -2) : pattern;
  return SEGMENTS.test(body);
}

/** Does the pattern name the reserved `tollgate.` namespace, where no tool action can be. */
export function isReserved(patternOrAction: string): boolean {
  return patternOrAction.startsWith(RESERVED_NAMESPACE);
}

/**
 * Does a well-formed pattern match an action.
 *
 * @example
 * matchesAction('payouts.*', 'payouts.send') // true
 * matchesAction('payouts.*', 'payouts') // false: * needs at least one more segment
 */
export function matchesAction(pattern: string, action: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('.*')) {
    const prefixLength = pattern.length - 1; // keeps the dot
    return action.length > prefixLength && action.startsWith(pattern.slice(0, prefixLength));
  }
  return pattern === action;
}
