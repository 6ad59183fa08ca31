// Keyset paging for the lists read newest first (decisions, approvals): a page ends at its last row's sort
// key, (created_at, rowid), and the next page starts strictly after it. Rows written meanwhile sort before
// the first page, so a walk reaches every older row exactly once however many arrive (OFFSET would shift).
// The cursor a client carries is that key, encoded: opaque to it, checked when it comes back.

/** The sort key of a row in a list read newest first. */
export interface PageKey {
  createdAt: string;
  rowid: number;
}

// A cursor is `created_at|rowid` in base64url: plain text this module writes and reads back by one pattern,
// so a client's cursor never reaches a JSON reader.
const KEY = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2}))\|([1-9]\d{0,15})$/;

/** The cursor naming the page after `key`. */
export function encodeCursor(key: PageKey): string {
  return Buffer.from(`${key.createdAt}|${key.rowid}`, 'utf8').toString('base64url');
}

/** The key a cursor names, or undefined when the text is not a cursor this server gave. */
export function decodeCursor(cursor: string): PageKey | undefined {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return undefined;
  const m = KEY.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  const rowid = Number(m?.[2]);
  if (!m || !Number.isSafeInteger(rowid)) return undefined;
  return { createdAt: m[1] as string, rowid };
}

/** A page of rows read with one more than `limit` (the extra says whether more follow), and its cursor. */
export function pageOf<T extends { created_at: string; row_key: number }>(
  rows: T[],
  limit: number,
): { rows: Omit<T, 'row_key'>[]; more: boolean; next: string | null } {
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const last = page[page.length - 1];
  const next = more && last ? encodeCursor({ createdAt: last.created_at, rowid: last.row_key }) : null;
  return { rows: page.map(({ row_key: _, ...row }) => row), more, next };
}

/** The condition of a newest-first page after `key` (a row value, which SQLite reads through the index). */
export const AFTER_KEY_SQL = '(created_at, rowid) < (?, ?)';
