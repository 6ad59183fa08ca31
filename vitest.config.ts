// One vitest run over every workspace's unit and integration tests; e2e runs under Playwright.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'packages/*/test/**/*.test.ts',
      'apps/api/src/**/*.test.ts',
      'apps/api/test/**/*.test.ts',
      'bench/src/**/*.test.ts',
      'apps/web/src/**/*.test.ts',
    ],
    testTimeout: 30_000,
  },
});
