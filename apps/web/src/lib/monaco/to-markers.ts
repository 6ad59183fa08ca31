// The Monaco glue: the one Diagnostic (engine and wire alike) becomes marker data as it is: its line and
// column start the marker, its endLine and endColumn end it; in JSON, one with only a path is placed where
// the pointer leads.
import { type Diagnostic, type Range, rangeOfDiagnostic, readJsonText } from '@tollgate/engine';

/** Monaco's MarkerSeverity values (kept here so this module never loads Monaco). */
export const MARKER_ERROR = 8;
export const MARKER_WARNING = 4;
export const MARKER_INFO = 2;

/** The part of a Monaco text model toMarkers reads. */
export interface ModelLike {
  getValue(): string;
  getLineCount(): number;
  getLineMaxColumn(lineNumber: number): number;
}

/** Marker data as monaco.editor.setModelMarkers takes it. */
export interface MarkerData {
  severity: typeof MARKER_ERROR | typeof MARKER_WARNING | typeof MARKER_INFO;
  message: string;
  code: string;
  source: string;
  startLineNumber: number;
  startColumn: number;
  endLineNumber: number;
  endColumn: number;
}

export interface ToMarkersOptions {
  /** The text is JSON: diagnostics with a path but no line are placed where the pointer leads. */
  json?: boolean;
}

/**
 * Maps diagnostics to marker data; a diagnostic with no place marks the first line.
 *
 * @example
 * toMarkers([{ code: 'X', severity: 'error', message: 'bad', line: 2, column: 1, endLine: 2, endColumn: 4 }], model)
 * // [{ severity: 8, startLineNumber: 2, startColumn: 1, endLineNumber: 2, endColumn: 4, ... }]
 */
export function toMarkers(diagnostics: readonly Diagnostic[], model: ModelLike, options: ToMarkersOptions = {}): MarkerData[] {
  let locate: ((pointer: string) => Range | undefined) | undefined;
  if (options.json && diagnostics.some((d) => d.line === undefined && d.path !== undefined)) {
    const read = readJsonText(model.getValue());
    if (read.ok) locate = read.rangeOf;
  }
  return diagnostics.map((d) => {
    const range = rangeOfDiagnostic(d) ?? (d.path !== undefined ? locate?.(d.path) : undefined);
    return {
      severity: d.severity === 'error' ? MARKER_ERROR : d.severity === 'warning' ? MARKER_WARNING : MARKER_INFO,
      message: d.message,
      code: d.code,
      source: 'tollgate',
      ...place(range, model),
    };
  });
}

/** Clamps a range to the model; an empty or missing range widens to its whole line. */
function place(range: Range | undefined, model: ModelLike) {
  const lines = Math.max(1, model.getLineCount());
  const clampLine = (line: number) => Math.min(Math.max(1, line), lines);
  if (range === undefined) return { startLineNumber: 1, startColumn: 1, endLineNumber: 1, endColumn: model.getLineMaxColumn(1) };
  const startLineNumber = clampLine(range.start.line);
  const endLineNumber = Math.max(startLineNumber, clampLine(range.end.line));
  const startColumn = Math.min(Math.max(1, range.start.column), model.getLineMaxColumn(startLineNumber));
  let endColumn = Math.min(Math.max(1, range.end.column), model.getLineMaxColumn(endLineNumber));
  if (endLineNumber === startLineNumber && endColumn <= startColumn) {
    return { startLineNumber, startColumn: 1, endLineNumber, endColumn: model.getLineMaxColumn(startLineNumber) };
  }
  if (endLineNumber === startLineNumber) endColumn = Math.max(endColumn, startColumn + 1);
  return { startLineNumber, startColumn, endLineNumber, endColumn };
}
