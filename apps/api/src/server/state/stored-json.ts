// JSON the server wrote itself from what an agent sent (a call's arguments, kept in the decision log),
// read back with the exact reader, so a number kept as written replays as written (json-number.ts in the
// engine). Pure, so the concepts' models read their stored JSON with it; routes answer such JSON with
// route-kit.ts's exactJson.
import { readJsonText } from '@tollgate/engine/source';
import { MAX_BODY_DEPTH } from '../json-depth.ts';

/** The value of stored JSON text; null when there is none or it does not read (never a guess). */
export function readStoredJson(text: string | null | undefined): unknown {
  if (text === null || text === undefined) return null;
  const read = readJsonText(text, { maxLength: Number.MAX_SAFE_INTEGER, maxDepth: MAX_BODY_DEPTH });
  return read.ok && !read.diagnostics.some((d) => d.code === 'DUPLICATE_MEMBER') ? read.value : null;
}
