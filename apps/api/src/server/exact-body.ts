// Every JSON request body is read once, by the engine's exact reader, before any route sees it: a body that
// is not UTF-8, not JSON, repeats a member or nests too deep is refused here with a code and a position,
// and the value routes read (`c.req.json()`, zod's validators) is the reader's, whose numbers keep their
// lexemes (docs/api.md, "Reading request bodies"). No route reads a request body any other way.
import { isUtf8 } from 'node:buffer';
import { type Diagnostic, readJsonText } from '@tollgate/engine/source';
import type { Context, MiddlewareHandler } from 'hono';
import { errorAnswer } from './errors.ts';
import { MAX_BODY_DEPTH } from './json-depth.ts';
import { watchJsonReads } from './json-reads.ts';
import { validationAnswer } from './openapi.ts';

// The media types zod-openapi's validator reads as JSON; call-request.ts answers 415 to the others.
const JSON_TYPE = /^application\/([a-z.-]+\+)?json(;\s*[a-zA-Z0-9-]+=([^;]+))*$/i;

const bodyDiagnostics = new WeakMap<Request, Diagnostic[]>();

/**
 * The exact reader's findings that do not refuse a body (INEXACT_NUMBER) inside the member at `pointer`,
 * with paths relative to it: a document sent in a body is held to what its file would be.
 */
export function bodyFindings(c: Context, pointer: string): Diagnostic[] {
  const all = bodyDiagnostics.get(c.req.raw) ?? [];
  const out: Diagnostic[] = [];
  for (const d of all) {
    const path = d.path ?? '';
    if (path === pointer || path.startsWith(`${pointer}/`)) {
      const { line: _line, column: _column, endLine: _endLine, endColumn: _endColumn, ...rest } = d;
      out.push({ ...rest, path: path.slice(pointer.length) });
    }
  }
  return out;
}

/**
 * Reads a JSON body exactly and hands routes its value.
 *
 * @example
 * api.use('*', exactJsonBody({ maxBytes: 1024 * 1024 }));
 */
export function exactJsonBody(options: { maxBytes: number }): MiddlewareHandler {
  const { maxBytes } = options;
  return async function readExactBody(c, next) {
    const type = c.req.header('content-type');
    const hasBody = c.req.header('content-length') !== undefined || c.req.header('transfer-encoding') !== undefined;
    if (type === undefined) return next();
    // A body this reader leaves alone (none, empty, or typed as JSON only by Hono's looser rule) may still be
    // read as JSON by a route's validator: its failure is marked, for errors.ts to answer INVALID_JSON.
    if (!hasBody || !JSON_TYPE.test(type)) {
      watchJsonReads(c);
      return next();
    }
    const read = await readBodyExactly(c, maxBytes);
    if (read instanceof Response) return read;
    if (read === EMPTY) {
      watchJsonReads(c);
      return next();
    }
    // Hono's request parses its text with the platform's JSON reader on every json() call (zod's validators): this
    // request's json() is the exact reader's value instead.
    const value = Promise.resolve(read.value);
    Object.defineProperty(c.req, 'json', { value: () => value, configurable: true });
    return next();
  };
}

/** A body of no bytes: the route decides what that means. */
export const EMPTY = Symbol('empty body');

/**
 * The request's body read exactly, or the refusal to answer with: the one reading behind the middleware
 * and the gate, which reads its own body (call-request.ts) to spare its hot path the middleware's work.
 */
export async function readBodyExactly(c: Context, maxBytes: number): Promise<{ value: unknown } | Response | typeof EMPTY> {
  const text = await readBodyText(c);
  return typeof text === 'string' ? readTextExactly(c, text, maxBytes) : text;
}

/** The request's body as text: EMPTY for no bytes, a refusal for bytes that are not UTF-8. */
export async function readBodyText(c: Context): Promise<string | Response | typeof EMPTY> {
  const bytes = await c.req.arrayBuffer();
  if (bytes.byteLength === 0) return EMPTY;
  // Bytes that are not UTF-8 are refused, never read with replacement characters; a BOM is kept, so the
  // reader refuses it as it refuses any other byte that is not JSON. (isUtf8 and Buffer's decoder are
  // simdutf's; TextDecoder's fatal mode costs several times more a call.)
  const text = utf8TextOf(Buffer.from(bytes));
  return text ?? errorAnswer(c, 'INVALID_JSON', 'the body is not UTF-8 text');
}

/** The bytes as UTF-8 text, or undefined for bytes that are not UTF-8 (never replacement characters). */
export function utf8TextOf(buffer: Buffer): string | undefined {
  return isUtf8(buffer) ? buffer.toString('utf8') : undefined;
}

/** A body's text read by the engine's exact reader: its value, or the refusal (a duplicate member among them). */
export function readTextExactly(c: Context, text: string, maxBytes: number): { value: unknown } | Response {
  const read = readJsonText(text, { maxLength: maxBytes, maxDepth: MAX_BODY_DEPTH });
  if (!read.ok) return refusal(c, read.diagnostic);
  if (read.diagnostics.length > 0) {
    const duplicates = read.diagnostics.filter((d) => d.code === 'DUPLICATE_MEMBER');
    if (duplicates.length > 0) {
      const issues = duplicates.map(issueOf);
      return errorAnswer(c, 'DUPLICATE_MEMBER', `${issues[0]?.path || 'the body'}: ${duplicates[0]?.message}`, { issues });
    }
    bodyDiagnostics.set(c.req.raw, read.diagnostics);
  }
  return { value: read.value };
}

function refusal(c: Context, d: Diagnostic): Response {
  const at = d.line !== undefined ? { line: d.line, column: d.column ?? 1 } : undefined;
  if (d.code === 'TOO_LARGE') return errorAnswer(c, 'TOO_LARGE', d.message);
  if (d.code === 'TOO_DEEP') {
    const path = (d.path ?? '')
      .split('/')
      .slice(1)
      .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
    return validationAnswer(c, [{ path, code: 'too_deep', message: `Too deep: a body nests at most ${MAX_BODY_DEPTH} levels` }]);
  }
  // The message every route gave before this reader (Hono's); where the text stops being JSON is in details.
  return errorAnswer(c, 'INVALID_JSON', 'Malformed JSON in request body', at);
}

function issueOf(d: Diagnostic) {
  const at = d.line !== undefined ? { line: d.line, column: d.column ?? 1 } : {};
  return { path: d.path ?? '', code: d.code, message: d.message, ...at };
}
