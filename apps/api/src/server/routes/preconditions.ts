// Preconditions on writes (docs/api.md, "Preconditions and paging"): the entity tag of a document or a rule
// set is its newest stored sequence, sent as a strong ETag (`"7"`) on every response about it; If-Match on a
// write names the tag the writer read. The store checks it under its lock with the write itself, so of two
// writers that read the same tag exactly one writes; this module reads the header and says what to check. A rule
// set's tag on /v1/rulesets adds the metadata changes made since its newest version (`"7.2"`, rulesets/lifecycle.ts).
import { z } from '@hono/zod-openapi';
import type { DocumentStore } from '@tollgate/store';
import { ApiError } from '../errors.ts';
import { lifecycleOf, metadataRevision, rulesetTag } from '../rulesets/lifecycle.ts';

/** The If-Match request header as the routes that honour it declare it (read by `readIfMatch`, not by zod). */
export const IfMatchHeader = z.object({
  'if-match': z
    .string()
    .max(256)
    .optional()
    .openapi({
      param: { name: 'if-match', in: 'header' },
      description: 'The ETag read (the newest version, `"7"`); the write is refused with 412 when it no longer is',
      example: '"7"',
    }),
});

/** The ETag response header, for a route's responses. */
export const ETAG = {
  ETag: { description: 'The newest stored version, a strong entity tag (`"7"`).', schema: { type: 'string' as const } },
};

/** `jsonResponse(...)` with the ETag header declared, and `more` headers (LOCATION on a 201). */
export const withETag = <T extends object>(
  response: T,
  more: Record<string, { description: string; schema: { type: 'string' } }> = {},
) => ({
  ...response,
  headers: { ...ETAG, ...more },
});

export const etag = (sequence: number) => `"${sequence}"`;

/** The newest stored sequence of a document or rule set, or null when none is stored. */
export async function newestOf(store: DocumentStore, id: string): Promise<number | null> {
  const history = await store.history(id).catch(() => []);
  let newest: number | null = null;
  for (const v of history) if (newest === null || v.sequence > newest) newest = v.sequence;
  return newest;
}

/** The ETag header of a document or rule set (none while nothing is stored). */
export async function etagHeaders(store: DocumentStore, id: string): Promise<Record<string, string>> {
  const newest = await newestOf(store, id);
  return newest === null ? {} : { ETag: etag(newest) };
}

/** A rule set's ETag header on /v1/rulesets: its newest version and the metadata changes made since (none while nothing is stored). */
export async function rulesetEtagHeaders(store: DocumentStore, id: string): Promise<Record<string, string>> {
  const newest = await newestOf(store, id);
  if (newest === null) return {};
  return { ETag: rulesetTag(newest, metadataRevision(await lifecycleOf(store).of(id), newest)) };
}

/** A tag's `revision` is the count after its dot (a rule set's metadata changes, rulesetTag), 0 without one. */
export type IfMatch = { kind: 'absent' } | { kind: 'any' } | { kind: 'tag'; sequence: number; revision: number } | { kind: 'never' };

const STRONG_TAG = /^"([1-9][0-9]{0,8})(?:\.([1-9][0-9]{0,8}))?"$/;

/**
 * The If-Match header: absent, `*`, one strong tag naming a sequence, or anything else, which can never
 * match a tag this API sends (a weak tag, a list, a tag that is not a sequence).
 */
export function readIfMatch(header: string | undefined): IfMatch {
  if (header === undefined) return { kind: 'absent' };
  const value = header.trim();
  if (value === '*') return { kind: 'any' };
  const m = STRONG_TAG.exec(value);
  return m ? { kind: 'tag', sequence: Number(m[1]), revision: m[2] === undefined ? 0 : Number(m[2]) } : { kind: 'never' };
}

/** 412 PRECONDITION_FAILED with the current tag, for an If-Match no write could satisfy. */
async function failed(store: DocumentStore, id: string, header: string): Promise<never> {
  const current = await newestOf(store, id);
  throw new ApiError('PRECONDITION_FAILED', `If-Match ${header} does not name ${id}'s newest version (${current ?? 'none'})`, {
    current,
  });
}

/**
 * The precondition of an edit or a rule-set PATCH: If-Match, based_on, or both agreeing. Neither (or
 * `If-Match: *`, which says nothing about what was read) is 428; both disagreeing is 400 INVALID_BODY.
 * Answers the sequence the store checks as the newest (`ifMatch`) when If-Match was sent, and the tag's revision
 * (a rule set's, with `revisions`; a document's tag has none, so one sent is never matched).
 */
export async function requiredPrecondition(
  store: DocumentStore,
  id: string,
  header: string | undefined,
  basedOn: number | null | undefined,
  options: { revisions?: boolean } = {},
): Promise<{ ifMatch?: number; revision?: number }> {
  const ifMatch = readIfMatch(header);
  if (ifMatch.kind === 'any' || (ifMatch.kind === 'absent' && basedOn === undefined)) {
    throw new ApiError(
      'PRECONDITION_REQUIRED',
      `a write to ${id} names the version it was made from: send If-Match with the ETag read (or based_on)`,
    );
  }
  if (ifMatch.kind === 'never' || (ifMatch.kind === 'tag' && ifMatch.revision > 0 && !options.revisions)) {
    return failed(store, id, header as string);
  }
  if (ifMatch.kind === 'absent') return {};
  // based_on, when sent too, is the running version the text was written from and is checked by the edit
  // seam in its own sense; If-Match is the newest stored version read. They differ while a newer version
  // is stored but not running, so neither is refused for differing from the other (docs/api.md).
  return { ifMatch: ifMatch.sequence, revision: ifMatch.revision };
}

/** The optional precondition of activate and revert: If-Match when sent (`*` asks for nothing). */
export async function optionalPrecondition(store: DocumentStore, id: string, header: string | undefined): Promise<{ ifMatch?: number }> {
  const ifMatch = readIfMatch(header);
  if (ifMatch.kind === 'never' || (ifMatch.kind === 'tag' && ifMatch.revision > 0)) return failed(store, id, header as string);
  return ifMatch.kind === 'tag' ? { ifMatch: ifMatch.sequence } : {};
}
