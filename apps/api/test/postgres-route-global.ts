// Once for a run of vitest.config.ts's `postgres` project (the API route suites on PostgreSQL): a database migrated
// as `tollgate migrate` does, which each suite's server copies (CREATE DATABASE ... TEMPLATE, postgres-harness.ts's
// routeDatabase) instead of migrating one of its own. Dropped after the run, with any copy a stopped run left.
import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { POSTGRES_UNREACHABLE } from '../../../packages/store/test/postgres-fixture.ts';
import { databaseUrl, dropDatabase, migrate, onServer } from './postgres-databases.ts';

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  // The suites report the server unreachable themselves (postgres-harness.ts, postgres-routes-unreachable.test.ts).
  if (POSTGRES_UNREACHABLE !== undefined) return undefined;
  const template = `tg_route_${randomBytes(4).toString('hex')}`;
  await onServer(`CREATE DATABASE ${template}`);
  try {
    await migrate(databaseUrl(template));
  } catch (err) {
    await dropDatabase(template);
    throw err;
  }
  project.provide('routeTemplate', template);
  return async () => {
    const copies = await onServer<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE $1 || '\\_%'", [template]);
    for (const { datname } of copies) await dropDatabase(datname);
    await dropDatabase(template);
  };
}
