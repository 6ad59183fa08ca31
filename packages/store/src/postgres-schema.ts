// The PostgreSQL document store's tables (docs/store.md, "The PostgreSQL store"), as numbered steps. A
// step, once shipped, is never edited: a change is a new step at the end. The store does not apply them
// itself; `tollgate migrate` (or a test) does, with applyDocumentMigrations or from the list.
import type pg from 'pg';

/** The channel every write is announced on (pg_notify, delivered on commit). */
export const DOCUMENTS_CHANNEL = 'tollgate_documents';

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

/** Where applyDocumentMigrations records the steps it applied (apart from the API's own schema_migrations). */
export const DOCUMENT_MIGRATIONS_TABLE = 'document_schema_migrations';

/** Any key will do as long as it is the same in every process: two nodes migrating at once take turns. */
const MIGRATION_LOCK_SQL = "SELECT pg_advisory_xact_lock(hashtext('tollgate document migrations'))";

/**
 * Applies the steps not yet applied, each in a transaction of its own with its record, under an advisory
 * lock; answers the step numbers it applied (none when the schema is current). Runs in the client's
 * search path.
 *
 * @example
 * const client = await pool.connect();
 * try { await applyDocumentMigrations(client); } finally { client.release(); }
 */
export async function applyDocumentMigrations(client: pg.ClientBase): Promise<number[]> {
  // Under the lock too: two CREATE TABLE IF NOT EXISTS at once can both try to create it.
  await locked(client, () =>
    client.query(
      `CREATE TABLE IF NOT EXISTS ${DOCUMENT_MIGRATIONS_TABLE} (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`,
    ),
  );
  const applied: number[] = [];
  for (const [i, sql] of POSTGRES_DOCUMENT_MIGRATIONS.entries()) {
    const version = i + 1;
    await locked(client, async () => {
      const done = await client.query(`SELECT 1 FROM ${DOCUMENT_MIGRATIONS_TABLE} WHERE version = $1`, [version]);
      if (done.rowCount !== 0) return;
      await client.query(sql);
      await client.query(`INSERT INTO ${DOCUMENT_MIGRATIONS_TABLE} (version) VALUES ($1)`, [version]);
      applied.push(version);
    });
  }
  return applied;
}

async function locked(client: pg.ClientBase, work: () => Promise<unknown>): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query(MIGRATION_LOCK_SQL);
    await work();
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  }
}
