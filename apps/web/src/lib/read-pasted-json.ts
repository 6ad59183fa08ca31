// Pasted JSON (a call to run, calls to simulate) read as the server reads it: the engine's exact reader, so a
// member named twice or a number that cannot be stated exactly is refused here with its place, never
// normalised by JSON.parse (the last duplicate kept, 12345678901234567890 rounded) before the server sees it.
import { readJsonText } from '@tollgate/engine/source';

/** `not_json`: the text is not JSON (or past a limit); `inexact`: JSON, but not statable exactly. */
export type PastedJson = { ok: true; value: unknown } | { ok: false; why: 'not_json' | 'inexact'; problem: string };

/**
 * Reads pasted text exactly: its value, or the first problem with its line and column.
 *
 * @example
 * readPastedJson('{"a": 1, "a": 2}') // { ok: false, why: 'inexact', problem: 'line 1, column 10: ...' }
 */
export function readPastedJson(text: string): PastedJson {
  const read = readJsonText(text);
  if (!read.ok) return { ok: false, why: 'not_json', problem: placed(read.diagnostic) };
  // A duplicate or an inexact number is a finding, not a failure, to the reader; pasted calls have neither.
  const [finding] = read.diagnostics;
  if (finding !== undefined) return { ok: false, why: 'inexact', problem: placed(finding) };
  return { ok: true, value: read.value };
}

function placed(d: { message: string; line?: number; column?: number }): string {
  return d.line === undefined ? d.message : `line ${d.line}, column ${d.column ?? 1}: ${d.message}`;
}

/** The problem in a sentence that starts with what was pasted: `The call is not JSON: ...`. */
export function pastedProblem(what: string, read: Extract<PastedJson, { ok: false }>): string {
  return read.why === 'not_json' ? `${what} not JSON: ${read.problem}` : `${what} not exact JSON: ${read.problem}`;
}
