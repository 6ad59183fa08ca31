// Compiling a rule sheet or Colang (with an optional catalogue), keeping nothing: the body and answer both
// POST /v1/rule-sheets/compile routes share (the stateless one behind auth, and the ctx-less one here).
import { z } from '@hono/zod-openapi';
import { type Catalogue, compileRules, readCatalogue } from '@tollgate/engine';
import type { Diagnostic } from '@tollgate/engine/source';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { errorBody } from './errors.ts';
import { exactJsonBody } from './exact-body.ts';
import { validationError } from './openapi.ts';

const MAX_BODY_BYTES = 8 * 1024 * 1024;

/** `{sheet | colang, catalogue?, catalogue_format?}`: exactly one of sheet and colang. */
export const CompileBody = z
  .strictObject({
    sheet: z.string().optional().openapi({ description: 'A rule sheet (YAML).' }),
    colang: z.string().optional().openapi({ description: 'A Colang policy; send this or sheet, not both.' }),
    catalogue: z.string().optional().openapi({ description: 'A catalogue, to lint the rules against.' }),
    catalogue_format: z.enum(['yaml', 'json']).optional().openapi({ description: "The catalogue's format; yaml unless given." }),
    source: z.string().max(256).optional().openapi({ description: 'A file name for the source map.' }),
  })
  .openapi('RuleSheetCompileBody');
export type CompileBody = z.infer<typeof CompileBody>;

/** A problem as the API reports it: the diagnostic with its line (null when it has none) at the top. */
export function problemWithLine(d: Diagnostic): Diagnostic & { line: number | null } {
  return { ...d, line: d.range?.start.line ?? null };
}

export type CompileAnswer =
  | { status: 200; body: { colang: string | null; rulebook: unknown; overlay: unknown; lints: Diagnostic[]; source_map: unknown } }
  | { status: 400 | 422; body: ReturnType<typeof errorBody> };

/**
 * Compiles a checked body; 400 unless exactly one of sheet and colang, 422 for a catalogue that does not
 * load or rules that do not compile (`rule_sheet_unsupported`, or the Colang code), each problem with its line.
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
    const code = kind === 'sheet' ? 'rule_sheet_unsupported' : (result.problems[0]?.code ?? 'colang_syntax');
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

/** The zod issues of a body as INVALID_BODY details, paths as JSON Pointers (as the routers' hook gives them). */

/** The ctx-less route (no data folder, no keys): the engine routes' tests and `rules compile --server`. */
export const ruleSheets = new Hono().post(
  '/compile',
  bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (c) => c.json(errorBody('TOO_LARGE', `the body is over ${MAX_BODY_BYTES} bytes`), 413),
  }),
  exactJsonBody({ maxBytes: MAX_BODY_BYTES }),
  async (c) => {
    const raw: unknown = await c.req.json().catch(() => undefined);
    if (raw === undefined) return c.json(errorBody('INVALID_BODY', 'the body is not JSON', { issues: [] }), 400);
    const parsed = CompileBody.safeParse(raw);
    if (!parsed.success) return c.json(validationError(parsed.error.issues), 400);
    const answer = compileBody(parsed.data);
    return c.json(answer.body, answer.status);
  },
);
