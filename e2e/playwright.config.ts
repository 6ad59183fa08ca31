// Playwright: the built console in Debian's Chromium against a real `tollgate serve`.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
// TOLLGATE_E2E_PORT lets two checkouts run their journeys side by side.
const port = Number(process.env.TOLLGATE_E2E_PORT ?? 4317);
// A fresh demo data folder for each run, so no run sees another's state. Workers re-read this file, so the
// folder travels in TOLLGATE_E2E_DATA: the tests read the demo's keys from <dataDir>/demo-keys.json.
const dataDir = process.env.TOLLGATE_E2E_DATA ?? mkdtempSync(join(tmpdir(), 'tollgate-e2e-'));
process.env.TOLLGATE_E2E_DATA = dataDir;

export default defineConfig({
  testDir: 'tests',
  fullyParallel: false,
  workers: 1,
  // Monaco's chunk (about 3 MB) takes a few seconds to parse in Chromium on a busy 2-core machine; assertions
  // wait up to 10 s for it rather than the default 5 s.
  expect: { timeout: 10_000 },
  forbidOnly: Boolean(process.env.CI),
  // Reporter output paths resolve against this file's folder: ../.reports is the repo root's .reports.
  reporter: [['list'], ['json', { outputFile: '../.reports/e2e.json' }]],
  outputDir: '../test-results',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'retain-on-failure',
    // An action whose target never appears fails instead of waiting out the whole test.
    actionTimeout: 15_000,
    launchOptions: {
      // Never a browser download: Debian's chromium, as the design requires.
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-quic',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: `npm run build -w apps/web && node apps/api/bin/tollgate.cjs serve --data ${dataDir} --demo --port ${port}`,
    cwd: repoRoot,
    url: `http://127.0.0.1:${port}/v1/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
