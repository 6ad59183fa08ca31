// The one migration runner of every PostgreSQL schema Tollgate keeps (docs/deploy.md, "Migrations"): numbered
// sequences of steps (the document store's, the server state's) recorded in one ledger, `schema_migrations`,
// one row per sequence and step, each step applied in a transaction of its own, under one advisory lock per
// schema. A step, once shipped, is never edited: a change is a new step at the end of its sequence.
//
// Earlier versions kept two ledgers (`schema_migrations` without a sequence column for the state, and
// `document_schema_migrations`); the runner adopts them into the one ledger the first time it runs, and
// appliedVersion still reads them until it has, so such a schema reads as the steps it holds.
import type pg from 'pg';

/** The ledger: which steps of which sequence were applied, and when. */
export const MIGRATION_LEDGER = 'schema_migrations';

/** The ledger of document steps before there was one ledger; adopted and dropped by applyMigrations. */
const EARLIER_DOCUMENT_LEDGER = 'document_schema_migrations';

/** A numbered sequence of steps: step N is `steps[N - 1]`. */
export interface MigrationSequence {
  /** How the ledger names it ('state', 'documents'). */
  readonly name: string;
  readonly steps: readonly string[];
}

// One lock per schema, held for a whole run: nodes migrating one schema take turns (the first applies every
// step, the next finds none to apply), suites in other schemas do not wait. A session lock, released in a
// finally, and by the server if the connection drops.
const LOCK_KEY = "hashtextextended('tollgate.schema_migrations.' || coalesce(current_schema(), ''), 0)";

/**
 * Applies the steps of `sequence` not yet applied, in order, each in a transaction of its own with its row
 * in the ledger; answers the step numbers applied (none when the schema is current). Runs in the client's
 * search path. A step that fails is rolled back whole, with the steps before it kept.
 *
 * @example
 * const client = await pool.connect();
 * try { await applyMigrations(client, { name: 'documents', steps: POSTGRES_DOCUMENT_MIGRATIONS }); } finally { client.release(); }
 */
export async function applyMigrations(client: pg.ClientBase, sequence: MigrationSequence): Promise<number[]> {
  await client.query(`SELECT pg_advisory_lock(${LOCK_KEY})`);
  try {
    await inStep(client, () => adoptEarlierLedgers(client));
    const applied: number[] = [];
    for (const [i, sql] of sequence.steps.entries()) {
      const version = i + 1;
      await inStep(client, async () => {
        const done = await client.query(`SELECT 1 FROM ${MIGRATION_LEDGER} WHERE sequence = $1 AND version = $2`, [sequence.name, version]);
        if (done.rowCount !== 0) return;
        await client.query(sql);
        await client.query(`INSERT INTO ${MIGRATION_LEDGER} (sequence, version) VALUES ($1, $2)`, [sequence.name, version]);
        applied.push(version);
      });
    }
    return applied;
  } finally {
    await client.query(`SELECT pg_advisory_unlock(${LOCK_KEY})`);
  }
}

/**
 * The highest step of the sequence named `name` applied to the schema (0: none), read from the one ledger or,
 * on a schema not migrated since there was one, from the ledger that sequence had before.
 */
export async function appliedVersion(on: pg.Pool | pg.ClientBase, name: string): Promise<number> {
  const layout = await ledgerLayout(on);
  if (layout === 'one') {
    const { rows } = await on.query<{ version: number | null }>(
      `SELECT max(version) AS version FROM ${MIGRATION_LEDGER} WHERE sequence = $1`,
      [name],
    );
    return rows[0]?.version ?? 0;
  }
  const earlier = name === 'documents' ? EARLIER_DOCUMENT_LEDGER : name === 'state' && layout === 'earlier' ? MIGRATION_LEDGER : undefined;
  if (earlier === undefined || !(await tableExists(on, earlier))) return 0;
  const { rows } = await on.query<{ version: number | null }>(`SELECT max(version) AS version FROM ${earlier}`);
  return rows[0]?.version ?? 0;
}

/** 'one': the ledger with a sequence column; 'earlier': the state's ledger from before it; 'none': no ledger. */
async function ledgerLayout(on: pg.Pool | pg.ClientBase): Promise<'one' | 'earlier' | 'none'> {
  const { rows } = await on.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = $1 AND column_name = 'sequence'`,
    [MIGRATION_LEDGER],
  );
  if ((rows[0]?.n ?? 0) > 0) return 'one';
  return (await tableExists(on, MIGRATION_LEDGER)) ? 'earlier' : 'none';
}

async function tableExists(on: pg.Pool | pg.ClientBase, table: string): Promise<boolean> {
  const { rows } = await on.query<{ t: string | null }>('SELECT to_regclass($1)::text AS t', [table]);
  return rows[0]?.t !== null && rows[0]?.t !== undefined;
}

/** Creates the one ledger, or turns the earlier ledgers into it: the state's rows gain their sequence, the documents' move in. */
async function adoptEarlierLedgers(client: pg.ClientBase): Promise<void> {
  const layout = await ledgerLayout(client);
  if (layout === 'earlier') {
    // The earlier state ledger kept applied_at as ISO text; every value it wrote reads as a timestamp.
    await client.query(
      `ALTER TABLE ${MIGRATION_LEDGER} ADD COLUMN sequence TEXT NOT NULL DEFAULT 'state';
       ALTER TABLE ${MIGRATION_LEDGER} ALTER COLUMN sequence DROP DEFAULT;
       ALTER TABLE ${MIGRATION_LEDGER} ALTER COLUMN applied_at TYPE TIMESTAMPTZ USING applied_at::timestamptz;
       ALTER TABLE ${MIGRATION_LEDGER} ALTER COLUMN applied_at SET DEFAULT now();
       ALTER TABLE ${MIGRATION_LEDGER} DROP CONSTRAINT ${MIGRATION_LEDGER}_pkey;
       ALTER TABLE ${MIGRATION_LEDGER} ADD PRIMARY KEY (sequence, version);`,
    );
  } else if (layout === 'none') {
    await client.query(
      `CREATE TABLE ${MIGRATION_LEDGER} (
         sequence TEXT NOT NULL,
         version INTEGER NOT NULL CHECK (version > 0),
         applied_at TIMESTAMPTZ NOT NULL DEFAULT now(),
         PRIMARY KEY (sequence, version)
       )`,
    );
  }
  if (await tableExists(client, EARLIER_DOCUMENT_LEDGER)) {
    await client.query(
      `INSERT INTO ${MIGRATION_LEDGER} (sequence, version, applied_at)
         SELECT 'documents', version, applied_at FROM ${EARLIER_DOCUMENT_LEDGER} ON CONFLICT DO NOTHING;
       DROP TABLE ${EARLIER_DOCUMENT_LEDGER};`,
    );
  }
}

/** One step in a transaction of its own: all of it, or none. */
async function inStep(client: pg.ClientBase, work: () => Promise<unknown>): Promise<void> {
  await client.query('BEGIN');
  try {
    await work();
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  }
}
