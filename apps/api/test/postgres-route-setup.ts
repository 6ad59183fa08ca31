// Set up around each test file of vitest.config.ts's `postgres` project (the API route suites on PostgreSQL): its
// first database is copied while the file loads, and every database its servers used is dropped once it is done
// (postgres-harness.ts); startServer (server-harness.ts) starts its servers here with postgres-harness.ts's.
import { afterAll } from 'vitest';
import { finishRouteDatabases, prepareDatabase, startPostgresTestServer } from './postgres-harness.ts';
import { startServersOnPostgresWith } from './server-harness.ts';

startServersOnPostgresWith(startPostgresTestServer);
prepareDatabase();
afterAll(() => finishRouteDatabases());
