// npm test: typecheck, lint, every vitest test, then the Playwright e2e journeys. The last line is
// `N passed, N failed`, summed from the runners' own JSON reports, so a run that executed nothing shows.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import pg from 'pg';

const reports = '.reports';
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const failures = [];
function step(name, command, args) {
  console.log(`\n== ${name}: ${command} ${args.join(' ')}`);
  const r = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, FORCE_COLOR: process.env.CI ? '0' : '1' } });
  if (r.status !== 0) failures.push(`${name} (exit ${r.status ?? r.signal})`);
}

// The PostgreSQL suites run when the server answers (docs/deploy.md, "Running the PostgreSQL suites"); where it does
// not, they are skipped and the summary says how many and why. Under .ci/run (TOLLGATE_REQUIRE_POSTGRES=1) an
// unreachable server fails the run instead.
const postgresUrl = process.env.TOLLGATE_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const postgresUnreachable = await (async () => {
  const client = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  } finally {
    await client.end().catch(() => {});
  }
})();
if (postgresUnreachable !== undefined) {
  const line = `PostgreSQL is unreachable at ${postgresUrl} (${postgresUnreachable})`;
  if (process.env.TOLLGATE_REQUIRE_POSTGRES === '1') failures.push(`${line}: CI requires it`);
  console.log(`\n${line}: the PostgreSQL suites will be skipped`);
}

step('typecheck', 'npm', ['run', '--silent', 'typecheck']);
step('lint', 'npx', ['biome', 'check', '.']);
step('unit', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${reports}/unit.json`]);
if (existsSync('e2e/playwright.config.ts')) {
  step('e2e', 'npx', ['playwright', 'test', '--config', 'e2e/playwright.config.ts']);
}

let passed = 0;
let failed = 0;
function read(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    failures.push(`no report at ${file}`);
    return undefined;
  }
}
const unit = read(`${reports}/unit.json`);
let skipped = 0;
let skippedPostgres = 0;
if (unit) {
  passed += unit.numPassedTests;
  failed += unit.numFailedTests;
  for (const file of unit.testResults ?? []) {
    for (const t of file.assertionResults ?? []) {
      if (t.status !== 'skipped' && t.status !== 'pending' && t.status !== 'todo') continue;
      skipped++;
      if (/PostgreSQL is unreachable/.test(t.fullName ?? '')) skippedPostgres++;
    }
  }
}
if (existsSync('e2e/playwright.config.ts')) {
  const e2e = read(`${reports}/e2e.json`);
  if (e2e) {
    passed += e2e.stats.expected + e2e.stats.flaky;
    failed += e2e.stats.unexpected;
  }
}
if (passed + failed === 0) failures.push('no test ran');
console.log('');
for (const f of failures) console.log(`failed: ${f}`);
if (skipped > 0) {
  const why =
    skippedPostgres > 0 ? ` (${skippedPostgres} of them PostgreSQL suites: ${postgresUnreachable ?? 'the server did not answer'})` : '';
  console.log(`${skipped} skipped${why}`);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failures.length > 0 || failed > 0 ? 1 : 0);
