// Paging of the list routes (docs/api.md, "Preconditions and paging"): `limit` (1-500, default 100) and
// an opaque `cursor` from the previous page; the answer says `has_more` and gives `next_cursor`. The cursor
// is the last row's sort key (state/keyset.ts), so pages hold still while rows are added.
import { z } from '@hono/zod-openapi';
import { ApiError } from '../errors.ts';
import { decodeCursor, type PageKey } from '../state/keyset.ts';

/** The `cursor` query parameter. */
export const CursorQuery = z
  .string()
  .min(1)
  .max(200)
  .optional()
  .openapi({ description: "The previous page's next_cursor: the page after it. Left out, the first page." });

/** What every page says besides its items. */
export const PageFields = {
  has_more: z.boolean().openapi({ description: 'Whether more items follow this page.' }),
  next_cursor: z.string().nullable().openapi({ description: 'The cursor of the next page; null on the last page.' }),
};

/** The key a cursor names (none without one); a cursor this server did not give is 400 INVALID_CURSOR. */
export function pageKeyOf(cursor: string | undefined): PageKey | undefined {
  if (cursor === undefined) return undefined;
  const key = decodeCursor(cursor);
  if (!key) throw new ApiError('INVALID_CURSOR', 'cursor is not a next_cursor this server gave; start again without one');
  return key;
}
