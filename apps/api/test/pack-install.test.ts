// The package a user installs (docs/cli.md, "The package"): `npm run pack` builds tollgate-VERSION.tgz, `npm install
// -g` puts it in an empty prefix with its dependencies from the registry, and from an empty folder outside the
// repository the installed `tollgate` answers --version and --help, validates a file offline, serves the demo (the
// console's page and assets, the demo agent's call decided, a big compile on the compile thread) and runs the MCP
// gateway over stdio. Slow (an npm install from the registry), so it is the one such test; it prints how long the
// install took and how long from its start to the first decision.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './server-harness.ts';

const work = mkdtempSync(join(tmpdir(), 'tollgate-pack-install-'));
let server: ChildProcess | undefined;
afterAll(async () => {
  if (server && server.exitCode === null && server.signalCode === null) {
    const exited = new Promise((r) => server?.once('exit', r));
    server.kill('SIGTERM');
    await exited;
  }
  rmSync(work, { recursive: true, force: true });
});

/** The environment of a user with no Tollgate settings: none of the test run's TOLLGATE_ variables. */
const userEnv = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !name.startsWith('TOLLGATE_') && !name.startsWith('VITEST')),
) as Record<string, string>;

function run(command: string, args: string[], cwd: string, env: Record<string, string> = userEnv) {
  const r = spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: 10 * 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Every file under `dir`, relative to it, outside node_modules. */
function filesOf(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .filter((path) => !path.startsWith('node_modules'));
}

/**
 * A folder holding the checkout's own build of better-sqlite3 as its install script's prebuilt download (named as
 * prebuild-install names it). At install, better-sqlite3 fetches its prebuilt binary from GitHub, which this machine
 * cannot reach, and so compiled itself for a minute and a half; the same version's binary, built for this Node, now
 * stands in for that download. Another version of better-sqlite3 finds no such file and compiles, as before.
 */
function localPrebuilds(): string {
  const dir = join(work, 'prebuilds');
  const module = join(REPO_ROOT, 'node_modules/better-sqlite3');
  const { version } = JSON.parse(readFileSync(join(module, 'package.json'), 'utf8')) as { version: string };
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  mkdirSync(dir, { recursive: true });
  const packed = run('tar', ['-czf', join(dir, name), 'build/Release/better_sqlite3.node'], module);
  expect(packed.code, packed.stderr).toBe(0);
  return dir;
}

describe('the installable package', () => {
  it(
    'packs, installs with npm install -g into an empty prefix, and serves the demo from an empty folder',
    async () => {
      const version = (JSON.parse(readFileSync(join(REPO_ROOT, 'apps/api/package.json'), 'utf8')) as { version: string }).version;
      const out = join(work, 'out');
      const packed = run(process.execPath, [join(REPO_ROOT, 'scripts/pack.mjs'), '--out', out], REPO_ROOT);
      expect(packed.code, packed.stderr).toBe(0);
      const tarball = join(out, `tollgate-${version}.tgz`);
      expect(packed.stdout).toContain(`pack: ${tarball} `);

      // A prefix of its own, so the user's global packages are never touched; the npm cache is the user's.
      const prefix = join(work, 'global');
      const cwd = join(work, 'empty');
      mkdirSync(cwd);
      const started = performance.now();
      const install = run('npm', ['install', '-g', '--prefix', prefix, '--allow-scripts=better-sqlite3', tarball], cwd, {
        ...userEnv,
        npm_config_better_sqlite3_local_prebuilds: localPrebuilds(),
        npm_config_fund: 'false',
        npm_config_audit: 'false',
        npm_config_update_notifier: 'false',
      });
      expect(install.code, `${install.stdout}\n${install.stderr}`).toBe(0);
      const installed = performance.now();

      // Only runtime: the bundles and built assets, no TypeScript, no tsx, the externals as its only dependencies.
      const home = join(prefix, 'lib/node_modules/tollgate');
      const manifest = JSON.parse(readFileSync(join(home, 'package.json'), 'utf8')) as Record<string, unknown>;
      expect(Object.keys(manifest.dependencies as object)).toEqual(['better-sqlite3']);
      expect(manifest.devDependencies).toBeUndefined();
      const files = filesOf(home);
      expect(files.filter((f) => /\.(ts|mts|tsx)$/.test(f))).toEqual([]);
      expect(files).toEqual(expect.arrayContaining(['apps/api/dist/compile.worker.cjs', 'apps/api/dist/log-writer.worker.cjs']));
      expect(files).toContain('apps/web/dist/index.html');
      expect(existsSync(join(home, 'node_modules/tsx'))).toBe(false);

      const tollgate = join(prefix, 'bin/tollgate');
      expect(run(tollgate, ['--version'], cwd)).toEqual({ code: 0, stdout: `tollgate ${version}\n`, stderr: '' });
      const help = run(tollgate, ['--help'], cwd);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('tollgate serve [--data DIR');
      // An offline command on a file of the user's: valid, then invalid (exit 1, its code and place).
      writeFileSync(join(cwd, 'mine.policy.json'), readFileSync(join(home, 'examples/refunds.policy.json')));
      expect(run(tollgate, ['policy', 'validate', 'mine.policy.json'], cwd)).toMatchObject({
        code: 0,
        stdout: 'mine.policy.json: valid, language revision 1\n',
      });
      writeFileSync(join(cwd, 'bad.policy.json'), '{"schema": "tollgate/policy@1", "frobs": 1}');
      const bad = run(tollgate, ['policy', 'validate', 'bad.policy.json'], cwd);
      expect(bad.code).toBe(1);
      expect(bad.stdout + bad.stderr).toContain('UNKNOWN_MEMBER');

      // The port from the environment (0: any free one), the data folder from the flag; the first line says both.
      const data = join(work, 'data');
      server = spawn(tollgate, ['serve', '--demo', '--data', data], {
        cwd,
        env: { ...userEnv, TOLLGATE_PORT: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const child = server;
      const line = await new Promise<string>((resolve, reject) => {
        let said = '';
        const timer = setTimeout(() => reject(new Error(`serve did not start: ${said}`)), 60_000);
        const hear = (chunk: Buffer) => {
          said += chunk.toString();
          const m = /^Tollgate is serving .*$/m.exec(said);
          if (m) {
            clearTimeout(timer);
            resolve(m[0]);
          }
        };
        child.stdout?.on('data', hear);
        child.stderr?.on('data', hear);
        child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${said}`)));
      });
      expect(line).toContain(`(data in ${data})`);
      const base = /at (http:\/\/127\.0\.0\.1:\d+)\//.exec(line)?.[1] as string;
      expect(base).toBeDefined();

      const page = await fetch(`${base}/`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('<title>Tollgate</title>');
      const script = /<script type="module"[^>]*src="([^"]+)"/.exec(html)?.[1] as string;
      expect(script).toBeDefined();
      const asset = await fetch(new URL(script, `${base}/`));
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-type')).toMatch(/javascript/);

      const keys = JSON.parse(readFileSync(join(data, 'demo-keys.json'), 'utf8')) as {
        members: { role: string; key: string }[];
        agents: { name: string; key: string }[];
      };
      const agent = keys.agents.find((a) => a.name === 'support-bot');
      expect(agent).toBeDefined();
      const call = await fetch(`${base}/v1/agents/support-bot/calls`, {
        method: 'POST',
        headers: { authorization: `Bearer ${agent?.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ tool: 'issue_refund', arguments: { amount: '500' } }),
      });
      expect(call.status).toBe(200);
      expect(await call.json()).toMatchObject({ decision: 'require_approval', rule: 'refund-approval' });
      const decided = performance.now();
      // The decision log's writer thread (a bundled worker) is up: readiness checks it.
      const ready = await fetch(`${base}/v1/health/ready`);
      expect(ready.status).toBe(200);
      // A sheet over the inline size (16 KiB) compiles on the other bundled worker, the compile thread.
      let sheet = 'rules:\n';
      for (let i = 0; i < 300; i++)
        sheet += `  - action: tool_${i}\n    requires: [approved_${i % 7}, checked]\n    when: { amount_over: ${100 + i} }\n`;
      expect(sheet.length).toBeGreaterThan(16 * 1024);
      const compiled = await fetch(`${base}/v1/rule-sheets/compile`, {
        method: 'POST',
        // A developer's key holds the catalogue grant compiling needs.
        headers: { authorization: `Bearer ${keys.members.find((m) => m.role === 'developer')?.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ sheet }),
      });
      expect(compiled.status).toBe(200);
      expect(JSON.stringify(await compiled.json())).toContain('tool_299');

      // The MCP gateway over stdio, beside serve on the same folder: initialize and tools/list answered.
      const messages = [
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pack', version: '1' } },
        },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      ];
      const mcp = spawnSync(tollgate, ['mcp', '--agent', 'support-bot', '--data', data], {
        cwd,
        env: { ...userEnv, TOLLGATE_AGENT_KEY: agent?.key as string },
        input: messages.map((m) => `${JSON.stringify(m)}\n`).join(''),
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(mcp.status, mcp.stderr).toBe(0);
      const answers = mcp.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { id?: number; result?: Record<string, unknown> });
      expect(answers.find((a) => a.id === 1)?.result).toMatchObject({ serverInfo: { name: 'tollgate' } });
      expect(answers.find((a) => a.id === 2)?.result).toHaveProperty('tools');

      const seconds = (ms: number) => (ms / 1000).toFixed(1);
      // biome-ignore lint/suspicious/noConsole: the measured times are this test's report (README, "Install")
      console.log(
        `pack-install: npm install -g took ${seconds(installed - started)} s; from its start to the first decision, ${seconds(decided - started)} s`,
      );
    },
    20 * 60_000,
  );
});
