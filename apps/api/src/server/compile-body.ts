// Compiling rules sent in a body (a sheet or Colang, with an optional catalogue): the one step behind
// POST /v1/rule-sheets/compile (both routes, inline or on the compile thread, compile-thread.ts) and
// POST /v1/rules/check, so it imports only the engine and the error shape.
import { API_CODES, type ApiCode, type Catalogue, compileRules, type RulesCompileResult, readCatalogue } from '@tollgate/engine';
import { type Diagnostic, diagnosticJson } from '@tollgate/engine/source';
import type { CompileBody } from './compile-body-schema.ts';
import { type ApiStatus, errorBody } from './errors.ts';

/** Rules in a body: exactly one of sheet and colang, with an optional catalogue to lint them against. */
export interface RulesInBody {
  sheet?: string | undefined;
  colang?: string | undefined;
  catalogue?: string | undefined;
  catalogue_format?: 'yaml' | 'json' | undefined;
  source?: string | undefined;
}

/** A refusal of rules in a body, as the routes answer it: plain data, so it crosses the compile thread. */
export interface RulesRefusal {
  status: ApiStatus;
  body: ReturnType<typeof errorBody>;
}

/** The refusal with `code`, answered with the status the registry gives it. */
function refusal(code: ApiCode, message: string, details: unknown): RulesRefusal {
  return { status: API_CODES[code].status, body: errorBody(code, message, details) };
}

export type CompiledRulesInBody = { ok: true; compiled: Extract<RulesCompileResult, { ok: true }>; catalogue: Catalogue | undefined };

/**
 * Compiles the rules of a checked body: 400 INVALID_BODY unless exactly one of sheet and colang (at
 * `pointer`), 422 INVALID_CATALOGUE for a catalogue that does not load, 422 rule_sheet_unsupported or
 * COLANG_UNSUPPORTED for rules that do not compile, each problem with its line.
 *
 * @example
 * compileRulesInBody({ sheet: 'rules:\n  - action: refund_card\n    never: true\n' }) // { ok: true, compiled, catalogue: undefined }
 */
export function compileRulesInBody(body: RulesInBody, pointer = ''): CompiledRulesInBody | RulesRefusal {
  if ((body.sheet === undefined) === (body.colang === undefined)) {
    const message = `${pointer ? `${pointer}: ` : ''}send exactly one of "sheet" and "colang"`;
    return refusal('INVALID_BODY', message, { issues: [] });
  }
  let catalogue: Catalogue | undefined;
  if (body.catalogue !== undefined) {
    const read = readCatalogue(body.catalogue, body.catalogue_format ?? 'yaml');
    if (!read.ok) return refusal('INVALID_CATALOGUE', 'the catalogue does not load', { problems: read.problems.map(diagnosticJson) });
    catalogue = read.catalogue;
  }
  const kind = body.sheet !== undefined ? 'sheet' : 'colang';
  const compiled = compileRules((body.sheet ?? body.colang) as string, kind, catalogue, body.source);
  if (!compiled.ok) {
    // One code per rule language; each problem keeps its own code (docs/api.md, "One vocabulary").
    const code = kind === 'sheet' ? 'rule_sheet_unsupported' : 'COLANG_UNSUPPORTED';
    const what = kind === 'sheet' ? 'sheet' : 'policy';
    return refusal(code, `the ${what} was not compiled; nothing was changed`, { problems: compiled.problems.map(diagnosticJson) });
  }
  return { ok: true, compiled, catalogue };
}

/** A JSON object the engine defines, as the answer carries it. */
type JsonObject = Record<string, unknown>;

export type CompileAnswer =
  | { status: 200; body: { colang: string | null; rulebook: JsonObject; overlay: JsonObject; lints: Diagnostic[]; source_map: JsonObject } }
  | RulesRefusal;

/**
 * Compiles a checked POST /v1/rule-sheets/compile body into the route's answer.
 *
 * @example
 * compileBody({ sheet: 'rules:\n  - action: refund_card\n    never: true\n' }) // { status: 200, body: { colang, ... } }
 */
export function compileBody(body: CompileBody): CompileAnswer {
  const result = compileRulesInBody(body);
  if (!('ok' in result)) return result;
  const { compiled } = result;
  return {
    status: 200,
    body: {
      colang: compiled.colang ?? null,
      rulebook: compiled.rulebook as unknown as JsonObject,
      overlay: compiled.overlay as unknown as JsonObject,
      lints: compiled.lints,
      source_map: compiled.sourceMap as unknown as JsonObject,
    },
  };
}
