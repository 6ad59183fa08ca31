// The PostgreSQL document store's tables (docs/store.md, "The PostgreSQL store"), as numbered steps. A
// step, once shipped, is never edited: a change is a new step at the end. The store does not apply them
// itself; `tollgate migrate` (or a test) does, with applyDocumentMigrations (postgres-migrations.ts's one runner).
import type pg from 'pg';
import { applyMigrations, type MigrationSequence } from './postgres-migrations.ts';

/** The channel every write is announced on (pg_notify, delivered on commit), as named in schema `public`. */
export const DOCUMENTS_CHANNEL = 'tollgate_documents';

/**
 * The SQL naming channel `base` (a parameter, e.g. `$1`) in the connection's schema: `base` itself in `public`,
 * as before schemas were told apart; elsewhere `base_` and 16 hex digits of the schema name's MD5, so workspaces
 * in schemas of one database never hear each other's notices (a channel name is at most 63 bytes).
 */
export function schemaChannelSql(base: string): string {
  return `CASE WHEN current_schema() = 'public' THEN ${base} ELSE ${base} || '_' || left(md5(current_schema()), 16) END`;
}

/** The name channel `base` has in the schema `on` works in (schemaChannelSql), for LISTEN. */
export async function schemaChannel(on: Pick<pg.Pool, 'query'>, base: string): Promise<string> {
  const result = await on.query<{ channel: string }>(`SELECT ${schemaChannelSql('$1::text')} AS channel`, [base]);
  const channel = result.rows[0]?.channel;
  if (channel === undefined || !/^[a-z0-9_]{1,63}$/.test(channel)) throw new Error(`no channel name for ${base} in this schema`);
  return channel;
}

/**
 * Step N is `POSTGRES_DOCUMENT_MIGRATIONS[N - 1]`.
 * - documents: one row per document, its index (versions, running, activation stack, next sequence) as
 *   JSON text, and the running sequence again as a column (get reads the running text in one statement);
 *   the row is what a write locks. TEXT, not JSONB: JSONB refuses `\u0000`, which a reason may hold.
 * - document_versions: each version's text as its UTF-8 bytes (a NUL included), never rewritten.
 * - document_state: small JSON state by key (NULL: no value).
 * - document_changes: one row, the change generation every write bumps in its transaction.
 */
export const POSTGRES_DOCUMENT_MIGRATIONS: readonly string[] = [
  `CREATE TABLE documents (
     id TEXT PRIMARY KEY,
     running INTEGER,
     index_json TEXT NOT NULL
   );
   CREATE TABLE document_versions (
     id TEXT NOT NULL REFERENCES documents (id),
     sequence INTEGER NOT NULL CHECK (sequence > 0),
     text BYTEA NOT NULL,
     PRIMARY KEY (id, sequence)
   );
   CREATE TABLE document_state (
     key TEXT PRIMARY KEY,
     value TEXT
   );
   CREATE TABLE document_changes (
     one BOOLEAN PRIMARY KEY DEFAULT true CHECK (one),
     generation BIGINT NOT NULL
   );
   INSERT INTO document_changes (one, generation) VALUES (true, 0);`,
];

/** The document store's sequence, as the one migration ledger names it (postgres-migrations.ts). */
export const DOCUMENT_MIGRATIONS: MigrationSequence = { name: 'documents', steps: POSTGRES_DOCUMENT_MIGRATIONS };

/**
 * Applies the document steps not yet applied (applyMigrations); answers the step numbers it applied (none when
 * the schema is current). Runs in the client's search path.
 *
 * @example
 * const client = await pool.connect();
 * try { await applyDocumentMigrations(client); } finally { client.release(); }
 */
export function applyDocumentMigrations(client: pg.ClientBase): Promise<number[]> {
  return applyMigrations(client, DOCUMENT_MIGRATIONS);
}
