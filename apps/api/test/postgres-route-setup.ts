// Set up around each test file of vitest.config.ts's `postgres` project (the API route suites on PostgreSQL): its
// first database is copied while the file loads, and every database its servers used is dropped once it is done
// (postgres-harness.ts).
import { afterAll } from 'vitest';
import { finishRouteDatabases, prepareDatabase } from './postgres-harness.ts';

prepareDatabase();
afterAll(() => finishRouteDatabases());
