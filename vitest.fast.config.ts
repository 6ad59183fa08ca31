// npm run test:fast: the engine, the console's units and the store without its crash, concurrency and PostgreSQL
// suites, in about a minute and a half here: the loop to run while editing those. npm test still runs everything.
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'apps/web/src/**/*.test.ts'],
    exclude: [
      ...configDefaults.exclude,
      // Child processes killed mid-write, racing processes and a database: the full run's, not the loop's.
      'packages/store/test/crash.test.ts',
      'packages/store/test/concurrency.test.ts',
      'packages/store/test/postgres-*.test.ts',
    ],
    testTimeout: 30_000,
  },
});
