// POST /v1/rule-sheets/compile: compiles a sheet or Colang (with an optional catalogue) and keeps nothing.
import { type Catalogue, compileRules, readCatalogue } from '@tollgate/engine';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';

const MAX_BODY_BYTES = 8 * 1024 * 1024;

type ApiError = { error: { code: string; message: string; details?: unknown } };

function error(code: string, message: string, details?: unknown): ApiError {
  return { error: details === undefined ? { code, message } : { code, message, details } };
}

export const ruleSheets = new Hono().post(
  '/compile',
  bodyLimit({ maxSize: MAX_BODY_BYTES, onError: (c) => c.json(error('TOO_LARGE', `the body is over ${MAX_BODY_BYTES} bytes`), 413) }),
  async (c) => {
    const body = (await c.req.json().catch(() => undefined)) as Record<string, unknown> | undefined;
    if (!body || typeof body !== 'object' || Array.isArray(body))
      return c.json(error('INVALID_BODY', 'send a JSON object {"kind", "text", "catalogue"?}'), 400);
    const kind = body.kind ?? 'sheet';
    if (kind !== 'sheet' && kind !== 'colang')
      return c.json(error('INVALID_BODY', '"kind" is "sheet" or "colang"', { path: '/kind' }), 400);
    if (typeof body.text !== 'string') return c.json(error('INVALID_BODY', '"text" is the sheet or Colang text', { path: '/text' }), 400);
    let catalogue: Catalogue | undefined;
    if (body.catalogue !== undefined) {
      const cat = body.catalogue as { text?: unknown; format?: unknown } | null;
      if (!cat || typeof cat.text !== 'string' || (cat.format !== 'yaml' && cat.format !== 'json')) {
        return c.json(error('INVALID_BODY', '"catalogue" is {"text", "format": "yaml"|"json"}', { path: '/catalogue' }), 400);
      }
      const read = readCatalogue(cat.text, cat.format);
      if (!read.ok) return c.json(error('INVALID_CATALOGUE', 'the catalogue does not load', { problems: read.problems }), 422);
      catalogue = read.catalogue;
    }
    const source = typeof body.source === 'string' ? body.source : undefined;
    const result = compileRules(body.text, kind, catalogue, source);
    if (!result.ok) {
      const code = kind === 'sheet' ? 'rule_sheet_unsupported' : (result.problems[0]?.code ?? 'colang_syntax');
      return c.json(
        error(code, `the ${kind === 'sheet' ? 'sheet' : 'policy'} was not compiled; nothing was changed`, { problems: result.problems }),
        422,
      );
    }
    return c.json(result);
  },
);
