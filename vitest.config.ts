// One vitest run over every workspace's unit and integration tests; e2e runs under Playwright. Two projects, so a
// failure names its state store: `sqlite` runs every file, the API on SQLite (apps/api/test/server-harness.ts's
// default), and `postgres` runs the API route suites again on PostgreSQL (TOLLGATE_TEST_STATE=postgres: each server
// on a database of its own, copied from one migrated for the run). TOLLGATE_TEST_STATE set in the shell keeps its
// project only: `TOLLGATE_TEST_STATE=postgres npx vitest run apps/api/test/api-gate.test.ts` runs that suite on
// PostgreSQL alone.
import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

const EVERY_TEST = [
  'packages/*/src/**/*.test.ts',
  'packages/*/test/**/*.test.ts',
  'apps/api/src/**/*.test.ts',
  'apps/api/test/**/*.test.ts',
  'bench/src/**/*.test.ts',
  'apps/web/src/**/*.test.ts',
];

/** The API route suites: a server through the harness, state reached through the API or the StateStore interface. */
const ROUTE_SUITES = /^(api-.*|mcp-.*|paging-lists)\.test\.ts$/;

/** Route suites about what only a data folder on SQLite has, or that start no server: SQLite's project runs them. */
const NOT_ON_POSTGRES = [
  // SQLite's decision log and writer thread, other connections to tollgate.db.
  'api-gate-caches.test.ts',
  // `tollgate serve` killed and started again on the data folder; the folder store's faults.
  'api-restart.test.ts',
  'api-store-faults.test.ts',
  // `tollgate mcp --data DIR` or `tollgate serve` as child processes on the data folder, beside /mcp; the CLI.
  'mcp-filesystem.test.ts',
  'mcp-import.test.ts',
  'mcp-list-changed.test.ts',
  'mcp-parse-error-id.test.ts',
  'mcp-pinning.test.ts',
  'mcp-serve-options.test.ts',
  'mcp-stdio.test.ts',
  'mcp-stdio-confirm.test.ts',
  'mcp-upstream-replies.test.ts',
  'mcp-upstream-timeouts.test.ts',
  // Picks its stores itself (startSqliteServer, startPostgresServer).
  'api-health-ready.test.ts',
  // No server.
  'mcp-import-drafts.test.ts',
  'mcp-plain-json.test.ts',
];

/**
 * The secret sealing members' custodial keys, as an operator's environment gives it (docs/approver-keys.md): every
 * test and the processes it starts have it, as every node of a deployment does; the tests of its absence unset it.
 */
const TOLLGATE_MEMBER_KEY_SECRET = 'tollgate-tests-member-key-secret-0123456789';

/** Stands in for the route suites on PostgreSQL where the server does not answer, so the summary says why. */
const UNREACHABLE_STAND_IN = 'apps/api/test/postgres-routes-unreachable.test.ts';

const API_TESTS = new URL('./apps/api/test/', import.meta.url);
const routeSuites = readdirSync(API_TESTS)
  .filter((f) => ROUTE_SUITES.test(f) && !NOT_ON_POSTGRES.includes(f))
  .map((f) => `apps/api/test/${f}`);

export default defineConfig(async () => {
  const only = process.env.TOLLGATE_TEST_STATE;
  if (only !== undefined && only !== '' && only !== 'sqlite' && only !== 'postgres') {
    throw new Error(`TOLLGATE_TEST_STATE is sqlite or postgres, not ${only}`);
  }
  const sqlite = {
    extends: true,
    test: {
      name: 'sqlite',
      include: EVERY_TEST,
      exclude: [...configDefaults.exclude, UNREACHABLE_STAND_IN],
      env: { TOLLGATE_TEST_STATE: 'sqlite', TOLLGATE_MEMBER_KEY_SECRET },
    },
  };
  // The same probe as the PostgreSQL suites' (docs/deploy.md, "Running the PostgreSQL suites"), once for the run.
  const { POSTGRES_UNREACHABLE } =
    only === 'sqlite' ? { POSTGRES_UNREACHABLE: undefined } : await import('./packages/store/test/postgres-fixture.ts');
  const postgres = {
    extends: true,
    test: {
      name: 'postgres',
      // One migrated database for the run, which each server copies into one of its own; each file's first copy
      // made while it loads, and what its servers used dropped once it is done.
      globalSetup: ['apps/api/test/postgres-route-global.ts'],
      setupFiles: ['apps/api/test/postgres-route-setup.ts'],
      // Asked for alone, the suites run and say the server is unreachable (postgres-harness.ts): nothing else was asked.
      include: POSTGRES_UNREACHABLE === undefined || only === 'postgres' ? routeSuites : [UNREACHABLE_STAND_IN],
      env: {
        TOLLGATE_TEST_STATE: 'postgres',
        TOLLGATE_MEMBER_KEY_SECRET,
        TOLLGATE_ROUTE_SUITES: routeSuites.join('\n'),
      },
    },
  };
  return {
    test: {
      testTimeout: 30_000,
      // Vitest runs one file at a time where it sees two cores (its default is one worker fewer than the cores), yet
      // most files here wait on processes, sockets and databases rather than compute: two at once took the suite
      // from about 15 to 7 minutes on this project's 2-core machine (docs/performance.md, "The test suite's time").
      maxWorkers: Math.max(2, availableParallelism() - 1),
      // A worker imports the app's modules once for all its files instead of once a file (import time 149 s to 14 s
      // of the run's worker time; docs/performance.md, "The test suite's time"). So a file puts back what it changes
      // of the process (environment variables, OpenTelemetry's global provider, the working folder); `--isolate`
      // runs each file in modules of its own, to tell whether a failure comes from a file before it.
      isolate: false,
      projects: only === 'sqlite' ? [sqlite] : only === 'postgres' ? [postgres] : [sqlite, postgres],
    },
  };
});
