// One diagnostic shape from parser to CLI to Monaco (STYLE.md, "Diagnostics").

/** A 1-based line and column; columns count UTF-16 code units, as Monaco does. */
export interface Position {
  line: number;
  column: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export type Severity = 'error' | 'warning';

/**
 * A problem found in a document.
 *
 * @example
 * { code: 'UNKNOWN_MEMBER', severity: 'error', path: '/rules/0/efect', message: 'unknown member "efect"' }
 */
export interface Diagnostic {
  /** A stable code from the registry; users script against it, so never rename one. */
  code: string;
  severity: Severity;
  /** What is wrong and, where it can, how to mend it. */
  message: string;
  /** RFC 6901 pointer into the document: `/rules/3/when/0`. `""` is the whole document. */
  path?: string;
  range?: Range;
}

/** Formats one diagnostic as `FILE: CODE at PATH: message` (or `FILE:LINE:COL: ...` when only a range is known). */
export function formatDiagnostic(file: string, d: Diagnostic): string {
  if (d.path !== undefined) {
    return `${file}: ${d.code} at ${d.path === '' ? '/' : d.path}: ${d.message}`;
  }
  if (d.range) {
    return `${file}:${d.range.start.line}:${d.range.start.column}: ${d.code}: ${d.message}`;
  }
  return `${file}: ${d.code}: ${d.message}`;
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

/** A problem as the CLI's `--json` and the API report it. */
export interface ProblemJson {
  code: string;
  path: string;
  message: string;
  line?: number;
  column?: number;
}

/**
 * The wire shape of a diagnostic: `{code, path, message}`, plus line and column where the text places it.
 *
 * @example
 * diagnosticJson({ code: 'UNKNOWN_MEMBER', severity: 'error', path: '/rules/0/efect', message: 'unknown member "efect"' })
 * // { code: 'UNKNOWN_MEMBER', path: '/rules/0/efect', message: 'unknown member "efect"' }
 */
export function diagnosticJson(d: Diagnostic): ProblemJson {
  const out: ProblemJson = { code: d.code, path: d.path ?? '', message: d.message };
  if (d.range) {
    out.line = d.range.start.line;
    out.column = d.range.start.column;
  }
  return out;
}
