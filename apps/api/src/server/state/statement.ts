// A statement as the concepts' pure models write it for either dialect (approvals/model.ts, decisions/model.ts):
// the SQL with its parameters' placeholders written by the dialect's mark, and the parameters in order.

/** Writes the placeholder of a statement's n-th parameter (from 1): `?` on SQLite, `$n` on PostgreSQL. */
export type Placeholder = (n: number) => string;

/** A statement and its parameters, in order. */
export interface Statement {
  sql: string;
  params: (string | number | null)[];
}

/** SQLite's placeholder: `?`, the parameters bound in order. */
export const SQLITE_MARK: Placeholder = () => '?';

/** PostgreSQL's placeholder: `$n`. */
export const POSTGRES_MARK: Placeholder = (n) => `$${n}`;
