// Where two texts differ, so an editor can replace only that span instead of its whole text.
/**
 * The span where two texts differ: the length of their common prefix (`start`) and of their common
 * suffix after it (`end`).
 *
 * @example
 * changedSpan('at_most: 3\n', 'at_most: 35\n') // { start: 10, end: 1 }
 */
export function changedSpan(before: string, after: string): { start: number; end: number } {
  const shorter = Math.min(before.length, after.length);
  let start = 0;
  while (start < shorter && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let end = 0;
  while (end < shorter - start && before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end)) end++;
  return { start, end };
}
