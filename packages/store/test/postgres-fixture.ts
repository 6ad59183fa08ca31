// The PostgreSQL the suites run against (docs/deploy.md, "Running the PostgreSQL suites"): reachable or not is
// decided once per test file, and each suite works in a schema of its own, dropped after it.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The server the PostgreSQL suites use; `TOLLGATE_TEST_DATABASE_URL` names another. */
export const TEST_DATABASE_URL: string = process.env.TOLLGATE_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function probe(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (err) {
    return `PostgreSQL is unreachable at ${TEST_DATABASE_URL} (${err instanceof Error ? err.message : String(err)})`;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Why the PostgreSQL suites are skipped, or undefined when the server answers. */
export const POSTGRES_UNREACHABLE: string | undefined = await probe();

/** A fresh schema on the test server: `url` connects with it as the search path; `drop` removes it and all it holds. */
export interface TestSchema {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/**
 * Creates a schema of its own for one suite or test.
 *
 * @example
 * const schema = await freshSchema('store');
 * afterAll(() => schema.drop());
 */
export async function freshSchema(label = 'test'): Promise<TestSchema> {
  const name = `tg_${label.replace(/[^a-z0-9_]/g, '_')}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA ${name}`);
  } finally {
    await admin.end();
  }
  return {
    name,
    url: withSearchPath(TEST_DATABASE_URL, name),
    async drop() {
      const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await c.connect();
      try {
        await c.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
      } finally {
        await c.end();
      }
    },
  };
}

/** The URL with `options=-c search_path=SCHEMA`, so every connection made from it works in that schema. */
export function withSearchPath(url: string, schema: string): string {
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return u.toString();
}
