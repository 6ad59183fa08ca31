// Databases of their own on the PostgreSQL test server (TOLLGATE_TEST_DATABASE_URL's, docs/deploy.md "Running the
// PostgreSQL suites"), for the route suites on PostgreSQL: made, migrated and dropped with the server's own
// statements. Light enough for vitest's global setup (postgres-route-global.ts), which must not load the server.
import pg from 'pg';
import { TEST_DATABASE_URL } from '../../../packages/store/test/postgres-fixture.ts';
import { migrateSchema } from '../src/server/postgres/schema.ts';

/** `TEST_DATABASE_URL` on another database of the same server. */
export function databaseUrl(name: string): string {
  const u = new URL(TEST_DATABASE_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Runs one statement on the test server's own database: CREATE and DROP DATABASE run outside any other. */
export async function onServer<T extends pg.QueryResultRow>(sql: string, values: unknown[] = []): Promise<T[]> {
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    return (await admin.query<T>(sql, values)).rows;
  } finally {
    await admin.end();
  }
}

/** Drops a database, closing whatever is still connected to it. */
export async function dropDatabase(name: string): Promise<void> {
  await onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

/** Migrates the database or schema `url` reaches, as `tollgate migrate` does. */
export async function migrate(url: string): Promise<void> {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  try {
    await migrateSchema(pool);
  } finally {
    await pool.end();
  }
}
