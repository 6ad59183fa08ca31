// Stands in for the API route suites on PostgreSQL when the server does not answer: vitest.config.ts runs this
// file in their place in the `postgres` project, and it reports each suite skipped with the reason, as the other
// PostgreSQL suites do (docs/deploy.md, "Running the PostgreSQL suites"), so the summary says how many and why.
import { describe, it } from 'vitest';
import { POSTGRES_UNREACHABLE } from '../../../packages/store/test/postgres-fixture.ts';

const suites = (process.env.TOLLGATE_ROUTE_SUITES ?? '').split('\n').filter((s) => s !== '');

describe.skip(`the API route suites on PostgreSQL (skipped: ${POSTGRES_UNREACHABLE ?? 'PostgreSQL is unreachable'})`, () => {
  for (const suite of suites) it(suite, () => {});
});
