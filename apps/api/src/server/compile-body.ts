// Compiling a checked POST /v1/rule-sheets/compile body: what both compile routes answer, inline or on
// the compile thread (compile-thread.ts), so it imports only the engine and the error shape.
import { type Catalogue, compileRules, readCatalogue } from '@tollgate/engine';
import { type Diagnostic, diagnosticJson } from '@tollgate/engine/source';
import { errorBody } from './errors.ts';
import type { CompileBody } from './rule-sheets.ts';

/** A problem as the API reports it: the diagnostic with its line (null when it has none) at the top. */
export function problemWithLine(d: Diagnostic): Omit<Diagnostic, 'line'> & { line: number | null } {
  return { ...diagnosticJson(d), line: d.line ?? null };
}

export type CompileAnswer =
  | { status: 200; body: { colang: string | null; rulebook: unknown; overlay: unknown; lints: Diagnostic[]; source_map: unknown } }
  | { status: 400 | 422; body: ReturnType<typeof errorBody> };

/**
 * Compiles a checked body; 400 unless exactly one of sheet and colang, 422 for a catalogue that does not
 * load or rules that do not compile (`RULE_SHEET_UNSUPPORTED`, or the Colang code), each problem with its line.
 *
 * @example
 * compileBody({ sheet: 'rules:\n  - action: refund_card\n    never: true\n' }) // { status: 200, body: { colang, ... } }
 */
export function compileBody(body: CompileBody): CompileAnswer {
  if ((body.sheet === undefined) === (body.colang === undefined)) {
    return { status: 400, body: errorBody('INVALID_BODY', 'send exactly one of "sheet" and "colang"', { issues: [] }) };
  }
  let catalogue: Catalogue | undefined;
  if (body.catalogue !== undefined) {
    const read = readCatalogue(body.catalogue, body.catalogue_format ?? 'yaml');
    if (!read.ok) return { status: 422, body: errorBody('INVALID_CATALOGUE', 'the catalogue does not load', { problems: read.problems }) };
    catalogue = read.catalogue;
  }
  const kind = body.sheet !== undefined ? 'sheet' : 'colang';
  const result = compileRules((body.sheet ?? body.colang) as string, kind, catalogue, body.source);
  if (!result.ok) {
    const code = kind === 'sheet' ? 'RULE_SHEET_UNSUPPORTED' : (result.problems[0]?.code ?? 'COLANG_SYNTAX');
    const what = kind === 'sheet' ? 'sheet' : 'policy';
    return {
      status: 422,
      body: errorBody(code, `the ${what} was not compiled; nothing was changed`, { problems: result.problems.map(problemWithLine) }),
    };
  }
  return {
    status: 200,
    body: {
      colang: result.colang ?? null,
      rulebook: result.rulebook,
      overlay: result.overlay,
      lints: result.lints,
      source_map: result.sourceMap,
    },
  };
}
