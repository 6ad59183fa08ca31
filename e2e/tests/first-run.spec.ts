// Journey: the first run of an empty workspace (docs/console.md, "First run"). The spec runs its own `tollgate serve`
// on an empty data folder (port TOLLGATE_E2E_FIRST_RUN_PORT, else the config's port + 1), with an owner key made by
// `tollgate keys create` and a variable in the server's environment. The owner pastes an MCP client's configuration,
// names the variable instead of its value (which never leaves the browser), drafts, and follows each step to a
// running agent; axe finds no serious or critical violation on the way.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';

const PORT = Number(process.env.TOLLGATE_E2E_FIRST_RUN_PORT ?? Number(process.env.TOLLGATE_E2E_PORT ?? 4317) + 1);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const REPO = fileURLToPath(new URL('../..', import.meta.url));
const DIR = mkdtempSync(join(tmpdir(), 'tollgate-e2e-first-run-'));
const RECORDER = join(REPO, 'apps/api/test/fixtures/recording-upstream.mjs');
/** The value the client's file holds, which the page must never send. */
const PASTED_SECRET = 'pasted-secret-value-4f1c9e';
/** The value the server's environment holds for the same variable. */
const SERVER_SECRET = 'server-secret-value-8a2d77';

let server: ChildProcess | undefined;
let ownerKey: string;

const healthy = () =>
  fetch(`${ORIGIN}/v1/health`).then(
    (r) => r.ok,
    () => false,
  );

test.use({ viewport: { width: 1280, height: 1000 } });

test.beforeAll(async () => {
  if (await healthy()) throw new Error(`port ${PORT} is taken by another server; set TOLLGATE_E2E_FIRST_RUN_PORT`);
  const data = join(DIR, 'data');
  const made = execFileSync(
    process.execPath,
    ['apps/api/bin/tollgate.cjs', 'keys', 'create', '--data', data, '--member', 'olivia', '--role', 'owner', '--json'],
    { cwd: REPO, encoding: 'utf8' },
  );
  ownerKey = (JSON.parse(made) as { key: string }).key;
  server = spawn(process.execPath, ['apps/api/bin/tollgate.cjs', 'serve', '--data', data, '--port', String(PORT)], {
    cwd: REPO,
    stdio: 'ignore',
    env: { ...process.env, ORDERS_TOKEN: SERVER_SECRET },
  });
  const deadline = Date.now() + 15_000;
  while (!(await healthy())) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    if (Date.now() > deadline) throw new Error('the server did not start within 15 s');
    await new Promise((r) => setTimeout(r, 100));
  }
});

test.afterAll(async () => {
  const running = server;
  if (running !== undefined && running.exitCode === null) {
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await exited;
  }
  rmSync(DIR, { recursive: true, force: true });
});

async function axeClean(page: Page, state: string): Promise<void> {
  const results = await new AxeBuilder({ page }).options({ rules: { 'label-content-name-mismatch': { enabled: true } } }).analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
  expect.soft(serious, `axe on ${state}`).toEqual([]);
}

const firstRun = (page: Page) => page.getByRole('region', { name: 'Start from your MCP client' });

/** Follows a step's link to the document's history and activates its only version. */
async function activateStep(page: Page, step: string, id: string): Promise<void> {
  await firstRun(page).getByRole('link', { name: step }).click();
  await expect(page).toHaveURL(new RegExp(`#/history/${encodeURIComponent(id).replaceAll('.', '\\.')}$`));
  await page.getByRole('button', { name: 'Activate version 1' }).click();
  await page.getByRole('button', { name: 'Confirm activating version 1' }).click();
  await expect(
    page
      .getByRole('list', { name: 'Versions' })
      .getByRole('listitem')
      .filter({ has: page.getByText('Version 1', { exact: true }) })
      .getByText('running'),
  ).toBeVisible();
  await page.goto(`${ORIGIN}/#/documents`);
}

test('an owner goes from a pasted MCP client configuration to a running agent, no value leaving the browser', async ({ page }) => {
  test.setTimeout(240_000);
  const sent: string[] = [];
  page.on('request', (r) => {
    if (r.method() !== 'GET') sent.push(`${r.url()} ${r.postData() ?? ''}`);
  });

  await page.goto(`${ORIGIN}/#/documents`);
  await page.getByLabel('Member key').fill(ownerKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(firstRun(page)).toBeVisible();
  await expect(firstRun(page).getByRole('status').first()).toHaveText('6 of 6 steps left.');
  await axeClean(page, 'the first run, empty');

  // Step 1: paste the client's file; its env value is replaced by the name of the server's variable.
  const config = {
    mcpServers: {
      orders: { command: process.execPath, args: [RECORDER, join(DIR, 'recorded.jsonl')], env: { ORDERS_TOKEN: PASTED_SECRET } },
    },
  };
  await page.getByLabel('Your MCP client’s configuration').fill(JSON.stringify(config, null, 2));
  await page.getByRole('button', { name: 'Read the configuration' }).click();
  await expect(page.getByText('1 value was removed: they stay in this browser.', { exact: false })).toBeVisible();
  await expect(page.getByLabel('orders: variable ORDERS_TOKEN')).toHaveValue('ORDERS_TOKEN');
  await page.getByText('What is sent').click();
  const preview = page.getByRole('region', { name: 'What is sent' });
  await expect(preview).toContainText('"ORDERS_TOKEN":"ORDERS_TOKEN"');
  await expect(preview).not.toContainText(PASTED_SECRET);
  await axeClean(page, 'the first run, naming the variables');

  await page.getByRole('button', { name: 'Draft the gateway' }).click();
  const drafted = page.getByRole('status', { name: 'Drafted' });
  await expect(drafted).toContainText('Drafted 3 tools (1 read-only, allowed; 2 held for approval). Nothing runs yet');
  await expect(drafted).toContainText('agents/mcp-agent.agent.yaml version 1');
  await expect(drafted).toContainText('Keep these variables in the server’s environment: ORDERS_TOKEN');
  await expect(firstRun(page).getByRole('status').first()).toHaveText('5 of 6 steps left.');
  await axeClean(page, 'the first run, drafted');
  await page.screenshot({ path: 'test-results/screens/first-run-drafted.png', fullPage: true });
  expect(sent.filter((s) => s.includes(PASTED_SECRET) || s.includes(SERVER_SECRET))).toEqual([]);
  expect(sent.some((s) => s.includes('/v1/mcp/import'))).toBe(true);

  // Steps 2-4: each draft is reviewed and activated on its history page, in order.
  await activateStep(page, 'Review and activate the drafted upstreams', 'mcp/servers.yaml');
  await expect(firstRun(page).getByRole('status').first()).toHaveText('4 of 6 steps left.');
  await activateStep(page, 'Review and activate the drafted catalogue', 'catalogues/mcp-agent.yaml');
  await activateStep(page, 'Review and activate the drafted policy', 'policies/mcp-agent.policy.json');
  await expect(firstRun(page).getByRole('status').first()).toHaveText('2 of 6 steps left.');

  // Step 5: the drafted examples run on the simulation page against the policy, then the suite is activated.
  await firstRun(page).getByRole('link', { name: 'Run the drafted examples, then activate them' }).click();
  await page.getByLabel('Policy document').selectOption('policies/mcp-agent.policy.json');
  await page.getByRole('radio', { name: "The policy's examples" }).check();
  await expect(page.getByText('3 examples from policies/mcp-agent.examples.json, version 1 (a draft: not running yet)')).toBeVisible();
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(page.getByRole('status').filter({ hasText: /calls:/ })).toHaveText('3 calls: 3 agreed, 0 differed, 0 not evaluable');
  await axeClean(page, 'the drafted examples run');
  await page.goto(`${ORIGIN}/#/documents`);
  await firstRun(page).getByRole('link', { name: 'policies/mcp-agent.examples.json' }).click();
  await page.getByRole('button', { name: 'Activate version 1' }).click();
  await page.getByRole('button', { name: 'Confirm activating version 1' }).click();
  await expect(page.getByRole('list', { name: 'Versions' }).getByText('running')).toBeVisible();
  await page.goto(`${ORIGIN}/#/documents`);
  await expect(firstRun(page).getByRole('status').first()).toHaveText('1 of 6 steps left.');
  await axeClean(page, 'the first run, one step left');

  // Step 6: the agent runs, and the workspace is past its first run.
  await activateStep(page, 'Activate the agent', 'agents/mcp-agent.agent.yaml');
  await expect(page.getByRole('heading', { name: 'Documents' }).first()).toBeVisible();
  await expect(firstRun(page)).toHaveCount(0);
  expect(sent.filter((s) => s.includes(PASTED_SECRET) || s.includes(SERVER_SECRET))).toEqual([]);
});
