// Gives each problem found on plain values the source range of its path (or of the nearest enclosing
// value the text places), and orders problems by line, so every problem of a YAML or JSON text has a line.
import { byPosition, type Diagnostic, placed, type Range } from './diagnostic.ts';
import { formatPointer, parsePointer } from './json-pointer.ts';

/**
 * Places problems by their paths and sorts them by position; a problem with a line keeps its place.
 *
 * @example
 * placeProblems([{ code: 'INVALID_VALUE', severity: 'error', path: '/status', message: '...' }], read.rangeOf)
 * // [{ ..., line: 3, column: 11, endLine: 3, endColumn: 17 }]
 */
export function placeProblems(problems: readonly Diagnostic[], rangeOf: (pointer: string) => Range | undefined): Diagnostic[] {
  const out = problems.map((p) => (p.line !== undefined ? p : { ...p, ...placed(rangeNear(rangeOf, p.path ?? '')) }));
  return out.sort(byPosition);
}

function rangeNear(rangeOf: (pointer: string) => Range | undefined, path: string): Range {
  const tokens = parsePointer(path) ?? [];
  for (let n = tokens.length; n >= 0; n--) {
    const range = rangeOf(formatPointer(tokens.slice(0, n)));
    if (range !== undefined) return range;
  }
  // Nothing placed (an empty document): the problem is the whole text's, from its first line.
  return { start: { line: 1, column: 1 }, end: { line: 1, column: 1 } };
}
