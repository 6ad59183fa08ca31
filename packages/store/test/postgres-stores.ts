// PostgreSQL stores for the factory-based suites (contract, preconditions): one schema per test file with
// the document migrations applied, made on first use (never when the server is unreachable), emptied before
// each store is opened, and dropped after the file.
import pg from 'pg';
import { afterAll } from 'vitest';
import { applyDocumentMigrations } from '../src/postgres-schema.ts';
import { PostgresDocumentStore, type PostgresStoreOptions } from '../src/postgres-store.ts';
import { freshSchema, type TestSchema } from './postgres-fixture.ts';

/** Every table the migrations make, emptied between stores; the change generation starts again at 0. */
const EMPTY_ALL = `TRUNCATE document_versions, documents, document_state; UPDATE document_changes SET generation = 0`;

export interface PostgresStores {
  /** A store on an empty schema (closed after the file, or by the test). */
  open(options?: PostgresStoreOptions): Promise<PostgresDocumentStore>;
  /** The schema, made on first use. */
  schema(): Promise<{ schema: TestSchema; pool: pg.Pool }>;
}

export function usePostgresStores(label: string): PostgresStores {
  let made: Promise<{ schema: TestSchema; pool: pg.Pool }> | undefined;
  const open: PostgresDocumentStore[] = [];
  const schema = () => {
    made ??= (async () => {
      const schema = await freshSchema(label);
      const pool = new pg.Pool({ connectionString: schema.url, max: 12 });
      pool.on('error', () => {});
      const client = await pool.connect();
      try {
        await applyDocumentMigrations(client);
      } finally {
        client.release();
      }
      return { schema, pool };
    })();
    return made;
  };
  afterAll(async () => {
    if (!made) return;
    const { schema, pool } = await made;
    for (const store of open.splice(0)) await store.close();
    await pool.end();
    await schema.drop();
  });
  return {
    schema,
    async open(options = {}) {
      const { pool } = await schema();
      for (const store of open.splice(0)) await store.close();
      await pool.query(EMPTY_ALL);
      const store = await PostgresDocumentStore.open({ ...options, pool });
      open.push(store);
      return store;
    },
  };
}
