// JSON the server wrote itself from what an agent sent (a call's arguments, kept in the decision log),
// read back with the exact reader, so a number kept as written replays as written (json-number.ts in the
// engine), and written with writeJson, so it is stored as written.
import { readJsonText, writeJson } from '@tollgate/engine/source';
import type { Context, TypedResponse } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { JSONParsed } from 'hono/utils/types';
import { MAX_BODY_DEPTH } from '../body-limit.ts';

/** The value of stored JSON text; null when there is none or it does not read (never a guess). */
export function readStoredJson(text: string | null | undefined): unknown {
  if (text === null || text === undefined) return null;
  const read = readJsonText(text, { maxLength: Number.MAX_SAFE_INTEGER, maxDepth: MAX_BODY_DEPTH });
  return read.ok && !read.diagnostics.some((d) => d.code === 'DUPLICATE_MEMBER') ? read.value : null;
}

/**
 * A JSON answer whose body may hold an agent's arguments: written with writeJson, so a number kept as
 * written is shown as written (c.json's JSON.stringify would refuse it).
 */
export function exactJson<T, S extends ContentfulStatusCode>(
  c: Context,
  body: T,
  status: S,
): Response & TypedResponse<JSONParsed<T>, S, 'json'> {
  const response: Response = c.body(writeJson(body), status, { 'content-type': 'application/json' });
  return response as Response & TypedResponse<JSONParsed<T>, S, 'json'>;
}
