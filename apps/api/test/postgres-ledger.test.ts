// The one migration ledger (docs/deploy.md, "Migrations"): both sequences are recorded in `schema_migrations`,
// and a schema migrated by an earlier Tollgate, whose state and document steps sat in two ledgers of their own,
// reads as it is and is adopted into the one ledger by the next migrate, with nothing applied twice.
import { POSTGRES_DOCUMENT_MIGRATIONS } from '@tollgate/store';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freshSchema, POSTGRES_UNREACHABLE, type TestSchema } from '../../../packages/store/test/postgres-fixture.ts';
import { migrateSchema, schemaStatus } from '../src/server/postgres/schema.ts';
import { POSTGRES_STATE_MIGRATIONS } from '../src/server/state/postgres-migrations.ts';

const SKIPPED = POSTGRES_UNREACHABLE ? ` (skipped: ${POSTGRES_UNREACHABLE})` : '';
const schemas: TestSchema[] = [];

async function withPool<T>(label: string, work: (pool: pg.Pool) => Promise<T>): Promise<T> {
  const schema = await freshSchema(label);
  schemas.push(schema);
  const pool = new pg.Pool({ connectionString: schema.url, max: 3 });
  try {
    return await work(pool);
  } finally {
    await pool.end();
  }
}

/** Applies every step as the earlier runners did: the state's ledger without a sequence and with text times, the documents' apart. */
async function migrateAsEarlierTollgate(pool: pg.Pool, stateSteps: number): Promise<void> {
  await pool.query('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
  await pool.query('CREATE TABLE document_schema_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())');
  for (const [i, sql] of POSTGRES_STATE_MIGRATIONS.slice(0, stateSteps).entries()) {
    await pool.query(sql);
    await pool.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)', [i + 1, '2026-01-02T03:04:05.678Z']);
  }
  for (const [i, sql] of POSTGRES_DOCUMENT_MIGRATIONS.entries()) {
    await pool.query(sql);
    await pool.query('INSERT INTO document_schema_migrations (version) VALUES ($1)', [i + 1]);
  }
}

async function ledger(pool: pg.Pool): Promise<{ sequence: string; version: number }[]> {
  const { rows } = await pool.query<{ sequence: string; version: number }>(
    'SELECT sequence, version FROM schema_migrations ORDER BY sequence, version',
  );
  return rows;
}

function steps(sequence: string, count: number): { sequence: string; version: number }[] {
  return Array.from({ length: count }, (_, i) => ({ sequence, version: i + 1 }));
}

describe.skipIf(POSTGRES_UNREACHABLE !== undefined)(`the one migration ledger${SKIPPED}`, () => {
  afterAll(async () => {
    for (const s of schemas) await s.drop();
  });

  it('records both sequences in schema_migrations and no other ledger', async () => {
    await withPool('ledger', async (pool) => {
      await migrateSchema(pool);
      expect(await ledger(pool)).toEqual([
        ...steps('documents', POSTGRES_DOCUMENT_MIGRATIONS.length),
        ...steps('state', POSTGRES_STATE_MIGRATIONS.length),
      ]);
      const other = await pool.query("SELECT to_regclass('document_schema_migrations')::text AS t");
      expect(other.rows[0].t).toBeNull();
    });
  });

  it('reads an earlier schema as it is, then adopts its two ledgers and applies only the steps it lacked', async () => {
    await withPool('ledger_adopt', async (pool) => {
      const known = POSTGRES_STATE_MIGRATIONS.length;
      await migrateAsEarlierTollgate(pool, known - 1);
      const before = await schemaStatus(pool);
      expect(before.state).toEqual({ current: known - 1, known });
      expect(before.documents).toEqual({ current: POSTGRES_DOCUMENT_MIGRATIONS.length, known: POSTGRES_DOCUMENT_MIGRATIONS.length });

      const { after } = await migrateSchema(pool);
      expect(after.state).toEqual({ current: known, known });
      expect(await ledger(pool)).toEqual([...steps('documents', POSTGRES_DOCUMENT_MIGRATIONS.length), ...steps('state', known)]);
      // The earlier times are kept, read as the instants they were written as.
      const first = await pool.query<{ at: Date }>(
        "SELECT applied_at AS at FROM schema_migrations WHERE sequence = 'state' AND version = 1",
      );
      expect(first.rows[0]?.at.toISOString()).toBe('2026-01-02T03:04:05.678Z');
      expect((await pool.query("SELECT to_regclass('document_schema_migrations')::text AS t")).rows[0].t).toBeNull();
      // Again: nothing to apply, nothing to adopt.
      expect((await migrateSchema(pool)).after).toEqual(after);
    });
  });
});
