// One diagnostic shape from every reader to the edit seam, the API, the CLI and the Monaco marker
// (docs/documents.md, "Codes").
import type { Code } from '../codes/index.ts';

/** A 1-based line and column; columns count UTF-16 code units, as Monaco does. */
export interface Position {
  line: number;
  column: number;
}

/** A span of text; `end` is just past its last character (exclusive, as Monaco's end column is). */
export interface Range {
  start: Position;
  end: Position;
}

export type Severity = 'error' | 'warning' | 'info';

/**
 * A problem found in a document, the same on the wire as in the engine.
 *
 * @example
 * { code: 'UNKNOWN_MEMBER', severity: 'error', path: '/rules/0/efect', message: 'unknown member "efect"', line: 4, column: 5, endLine: 4, endColumn: 10 }
 */
export interface Diagnostic {
  /** A stable code from the registry (packages/engine/src/codes/index.ts); users script against it. */
  code: Code;
  severity: Severity;
  /** What is wrong and, where it can, how to mend it. */
  message: string;
  /** RFC 6901 pointer into the document: `/rules/3/when/0`. `""` is the whole document. */
  path?: string;
  /** Where the text places it, 1-based; `endLine`/`endColumn` are just past its end. */
  line?: number;
  column?: number;
  endLine?: number;
  endColumn?: number;
}

/** The place fields of a diagnostic, from a range (nothing when there is none). */
export type Placement = Pick<Diagnostic, 'line' | 'column' | 'endLine' | 'endColumn'>;

/**
 * The place fields for a range, to spread into a diagnostic.
 *
 * @example
 * placed({ start: { line: 2, column: 3 }, end: { line: 2, column: 8 } }) // { line: 2, column: 3, endLine: 2, endColumn: 8 }
 */
export function placed(range: Range | undefined): Placement {
  if (range === undefined) return {};
  return { line: range.start.line, column: range.start.column, endLine: range.end.line, endColumn: range.end.column };
}

/** The range a diagnostic names, if it names one (the end defaults to its start). */
export function rangeOfDiagnostic(d: Diagnostic): Range | undefined {
  if (d.line === undefined) return undefined;
  const start = { line: d.line, column: d.column ?? 1 };
  return { start, end: { line: d.endLine ?? start.line, column: d.endColumn ?? start.column } };
}

/**
 * Formats one diagnostic the way the CLI prints it: `FILE:LINE:COLUMN: CODE: message`, or
 * `FILE: CODE at PATH: message` when the text does not place it; a warning or note is marked at the end.
 */
export function formatDiagnostic(file: string, d: Diagnostic): string {
  const mark = d.severity === 'error' ? '' : ` (${d.severity})`;
  if (d.line !== undefined) return `${file}:${d.line}:${d.column ?? 1}: ${d.code}: ${d.message}${mark}`;
  if (d.path !== undefined) return `${file}: ${d.code} at ${d.path === '' ? '/' : d.path}: ${d.message}${mark}`;
  return `${file}: ${d.code}: ${d.message}${mark}`;
}

/** Converts a UTF-16 offset into a 1-based position. */
export function positionAt(text: string, offset: number): Position {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}

/**
 * The wire form of a diagnostic: the same fields, with only those that are set (no `undefined` members,
 * so it serialises and compares the same everywhere).
 */
export function diagnosticJson(d: Diagnostic): Diagnostic {
  const out: Diagnostic = { code: d.code, severity: d.severity, message: d.message };
  if (d.path !== undefined) out.path = d.path;
  if (d.line !== undefined) {
    out.line = d.line;
    out.column = d.column ?? 1;
    out.endLine = d.endLine ?? d.line;
    out.endColumn = d.endColumn ?? out.column;
  }
  return out;
}

/** Orders diagnostics by where they are (unplaced last), keeping the order of equals. */
export function byPosition(a: Diagnostic, b: Diagnostic): number {
  return (a.line ?? Number.MAX_SAFE_INTEGER) - (b.line ?? Number.MAX_SAFE_INTEGER) || (a.column ?? 0) - (b.column ?? 0);
}
