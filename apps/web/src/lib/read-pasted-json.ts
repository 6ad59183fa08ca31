// Pasted JSON (a call to run, calls to simulate) read as the server reads a request body: the engine's exact
// reader, so a member named twice or a number that cannot be stated exactly is refused here with its place
// and the code the server gives, never normalised by JSON.parse (the last duplicate kept, 12345678901234567890
// rounded) before the server sees it.
import { type Diagnostic, readJsonText } from '@tollgate/engine/source';

/** Where in the pasted text a problem is: offsets into it, to select there. */
export interface PastedPlace {
  start: number;
  end: number;
}

/** `not_json`: the text is not JSON (or past a limit); `inexact`: JSON, but not statable exactly. */
export type PastedJson =
  | { ok: true; value: unknown }
  | { ok: false; why: 'not_json' | 'inexact'; code: string; problem: string; place?: PastedPlace };

/**
 * The code the API answers a body with for the reader's `code`: text that is not JSON is INVALID_JSON there
 * (apps/api/src/server/exact-body.ts); a duplicate, a size or a depth keeps the reader's code.
 */
function serverCode(code: string): string {
  return code === 'NOT_JSON' ? 'INVALID_JSON' : code;
}

/**
 * Reads pasted text exactly: its value, or the first problem with its line and column, its code and its place.
 *
 * @example
 * readPastedJson('{"a": 1, "a": 2}') // { ok: false, why: 'inexact', code: 'DUPLICATE_MEMBER', problem: 'line 1, column 10: DUPLICATE_MEMBER: ...' }
 */
export function readPastedJson(text: string): PastedJson {
  const read = readJsonText(text);
  if (!read.ok) return refused('not_json', read.diagnostic, text);
  // A duplicate or an inexact number is a finding, not a failure, to the reader; pasted calls have neither.
  const [finding] = read.diagnostics;
  if (finding !== undefined) return refused('inexact', finding, text);
  return { ok: true, value: read.value };
}

/** The reader's words for text that is not JSON repeat what the sentence says already ("not JSON", the place). */
const NOT_JSON_WORDS = /^not JSON: (.*) at line \d+, column \d+$/;

function refused(why: 'not_json' | 'inexact', d: Diagnostic, text: string): PastedJson {
  const code = serverCode(d.code);
  const said = `${code}: ${NOT_JSON_WORDS.exec(d.message)?.[1] ?? d.message}`;
  if (d.line === undefined) return { ok: false, why, code, problem: said };
  const column = d.column ?? 1;
  const start = offsetOf(text, d.line, column);
  const end = d.endLine === undefined ? start : offsetOf(text, d.endLine, d.endColumn ?? column);
  return { ok: false, why, code, problem: `line ${d.line}, column ${column}: ${said}`, place: { start, end: Math.max(start, end) } };
}

/** The offset of a 1-based line and column (UTF-16 code units, as the reader counts them) in `text`. */
function offsetOf(text: string, line: number, column: number): number {
  let at = 0;
  for (let l = 1; l < line; l++) {
    const next = text.indexOf('\n', at);
    if (next === -1) return text.length;
    at = next + 1;
  }
  return Math.min(at + column - 1, text.length);
}

/** The problem in a sentence that starts with what was pasted: `The call is not JSON: ...`. */
export function pastedProblem(what: string, read: Extract<PastedJson, { ok: false }>): string {
  return read.why === 'not_json' ? `${what} not JSON: ${read.problem}` : `${what} not exact JSON: ${read.problem}`;
}
