// Action patterns compared: whether one reaches every action another does, and what a list newly reaches
// (an agent's delegation, docs/documents.md).

/**
 * Does a pattern match every action another matches (`*` covers all, `a.*` covers `a.b` and `a.b.*`).
 *
 * @example
 * patternCovers('orders.*', 'orders.export') // true
 * patternCovers('orders.read', 'orders.*') // false
 */
export function patternCovers(outer: string, inner: string): boolean {
  if (outer === '*') return true;
  if (inner === '*') return false;
  if (outer.endsWith('.*')) {
    const prefix = outer.slice(0, -1);
    return inner.startsWith(prefix) && inner.length > prefix.length;
  }
  return outer === inner;
}

/**
 * Patterns of `after` that none of `before` covers: the actions a list newly reaches.
 *
 * @example
 * uncoveredPatterns(['orders.*'], ['orders.read', 'payouts.send']) // ['payouts.send']
 */
export function uncoveredPatterns(before: readonly string[], after: readonly string[]): string[] {
  return after.filter((p) => !before.some((q) => patternCovers(q, p)));
}
