// npm test: typecheck, lint, every vitest test, then the Playwright e2e journeys. The last line is
// `N passed, N failed`, summed from the runners' own JSON reports, so a run that executed nothing shows.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const reports = '.reports';
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const failures = [];
function step(name, command, args) {
  console.log(`\n== ${name}: ${command} ${args.join(' ')}`);
  const r = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, FORCE_COLOR: process.env.CI ? '0' : '1' } });
  if (r.status !== 0) failures.push(`${name} (exit ${r.status ?? r.signal})`);
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
if (unit) {
  passed += unit.numPassedTests;
  failed += unit.numFailedTests;
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
console.log(`${passed} passed, ${failed} failed`);
process.exit(failures.length > 0 || failed > 0 ? 1 : 0);
