// The bundled CLI (scripts/build-cli.mjs, apps/api/dist/tollgate.cjs, run by the bin apps/api/bin/tollgate.cjs) says exactly what the TypeScript
// entry run through tsx says, exit codes included; and `tollgate serve` from the bundle runs its two
// worker threads (the decision writer, the compile thread) and the console-missing page. Real processes.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOP_CATALOGUE, SHOP_SHEET, UNSUPPORTED_SHEET } from './rules-fixtures.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const BUNDLE = join(root, 'apps/api/dist/tollgate.cjs');
const BIN = join(root, 'apps/api/bin/tollgate.cjs');
const ENTRY = join(root, 'apps/api/src/cli/run.ts');

function run(argv: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, argv, { cwd: root, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
// The bin runs the bundle while it is fresh, as it is after the build below.
const bundled = (...args: string[]) => run([BIN, ...args]);
const throughTsx = (...args: string[]) => run(['--import', 'tsx', ENTRY, ...args]);

const dir = mkdtempSync(join(tmpdir(), 'tollgate-bundle-'));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

beforeAll(() => {
  // The same build `npm install` runs (the root prepare script), so the bundle is the one of these sources;
  // a fresh one is kept, since other tests may be running the CLI from it.
  const build = run([join(root, 'scripts/build-cli.mjs'), '--if-stale']);
  expect(build.code, build.stderr).toBe(0);
  expect(existsSync(BUNDLE), build.stdout + build.stderr).toBe(true);
}, 120_000);

describe('the bundled CLI', () => {
  const broken = JSON.parse(readFileSync(join(root, 'examples/refunds.policy.json'), 'utf8'));
  broken.rules[0].effect = 'maybe';
  const cases: [string, string[]][] = [
    [
      'a valid policy',
      [
        'policy',
        'validate',
        'examples/refunds.policy.json',
        '--tools',
        'examples/refunds.tools.json',
        '--members',
        'examples/members.json',
      ],
    ],
    ['an invalid policy, as JSON', ['policy', 'validate', file('broken.policy.json', JSON.stringify(broken, null, 2)), '--json']],
    ['a file that is not there', ['policy', 'validate', join(dir, 'missing.json')]],
    [
      'a sheet compiled against a catalogue',
      ['rules', 'compile', file('shop.yaml', SHOP_SHEET), '--catalogue', file('shop.catalogue.yaml', SHOP_CATALOGUE), '--json'],
    ],
    ['a sheet it refuses', ['rules', 'compile', file('unsupported.yaml', UNSUPPORTED_SHEET)]],
    ['an unknown command', ['policy', 'frobnicate']],
  ];

  it.each(cases)('answers %s exactly as the TypeScript entry does', { timeout: 240_000 }, (_name, args) => {
    const fromBundle = bundled(...args);
    const fromTsx = throughTsx(...args);
    expect(fromBundle).toEqual(fromTsx);
    expect(fromBundle.stdout + fromBundle.stderr).not.toBe('');
  });
});

describe('what `policy validate` loads from the bundle', () => {
  it('is the entry, the one command and cli-io, and never the ES module loader', { timeout: 60_000 }, () => {
    // A preload that reports, at exit, the files required and Node's internal modules loaded.
    const report = file(
      'report-loads.cjs',
      "process.on('exit', () => process.stderr.write(JSON.stringify({ files: Object.keys(require.cache), internal: process.moduleLoadList }) + '\\n'));",
    );
    const r = run(['-r', report, BIN, 'policy', 'validate', 'examples/refunds.policy.json']);
    expect(r.code, r.stderr).toBe(0);
    const loads = JSON.parse(r.stderr.trim().split('\n').pop() as string) as { files: string[]; internal: string[] };
    const fromDist = loads.files.filter((f) => f.startsWith(dirname(BUNDLE))).map((f) => f.slice(dirname(BUNDLE).length + 1));
    expect(fromDist.sort()).toEqual(['cli-io.cjs', 'command-policy-validate.cjs', 'tollgate.cjs']);
    expect(loads.internal).not.toContain('NativeModule internal/modules/esm/loader');
  });
});

describe('files the bundle finds by URL', () => {
  it('are the files beside its sources: the worker threads, the examples, the console folder', () => {
    // scripts/build-cli.mjs turns a source's import.meta.url into that source's URL, found from the bundle.
    const found: string[] = [];
    for (const name of readdirSync(dirname(BUNDLE)).filter((f) => f.endsWith('.cjs'))) {
      const text = readFileSync(join(dirname(BUNDLE), name), 'utf8');
      const pattern =
        /new URL\(\s*"([^"]+)",\s*require\("node:url"\)\.pathToFileURL\(require\("node:path"\)\.join\(__dirname, "([^"]+)"\)\)\.href\s*\)/g;
      for (const m of text.matchAll(pattern)) {
        const source = new URL(m[2] as string, pathToFileURL(BUNDLE));
        expect(existsSync(source), `${name}: ${m[2]}`).toBe(true);
        found.push(fileURLToPath(new URL(m[1] as string, source)).slice(root.length));
      }
    }
    expect(found).toEqual(
      expect.arrayContaining([
        'apps/api/src/server/worker-bootstrap.mjs',
        'apps/api/src/server/compile.worker.ts',
        'apps/api/src/server/state/decisions/log-writer.worker.ts',
        'examples/refunds.policy.json',
        'apps/web/dist',
      ]),
    );
    for (const path of found) expect(existsSync(join(root, path === 'apps/web/dist' ? 'apps/web' : path)), path).toBe(true);
  });
});

describe('tollgate serve from the bundle', () => {
  let server: ChildProcess | undefined;
  let url = '';
  const data = mkdtempSync(join(tmpdir(), 'tollgate-bundle-serve-'));

  beforeAll(async () => {
    server = spawn(process.execPath, [BIN, 'serve', '--data', data, '--demo', '--port', '0'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    url = await new Promise<string>((resolve, reject) => {
      server?.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const m = /serving the console and API at (http:\/\/[^/]+)\//.exec(out);
        if (m) resolve(m[1] as string);
      });
      server?.once('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
    });
  }, 120_000);

  afterAll(() => {
    server?.kill('SIGTERM');
  });

  const keys = () => JSON.parse(readFileSync(join(data, 'demo-keys.json'), 'utf8'));

  it('records a gate decision through the decision writer thread', { timeout: 60_000 }, async () => {
    const agent = keys().agents.find((a: { name: string }) => a.name === 'support-bot').key;
    const owner = keys().members.find((m: { role: string }) => m.role === 'owner').key;
    const call = await fetch(`${url}/v1/agents/support-bot/calls`, {
      method: 'POST',
      headers: { authorization: `Bearer ${agent}`, 'content-type': 'application/json' },
      body: JSON.stringify({ tool: 'issue_refund', arguments: { amount: '50' } }),
    });
    expect(call.status).toBe(200);
    const { call_id } = (await call.json()) as { call_id: string };
    const listed = await fetch(`${url}/v1/decisions?limit=5`, { headers: { authorization: `Bearer ${owner}` } });
    expect(listed.status).toBe(200);
    expect(JSON.stringify(await listed.json())).toContain(call_id);
  });

  it('compiles a sheet over 16 KiB (the compile thread takes it)', { timeout: 60_000 }, async () => {
    const owner = keys().members.find((m: { role: string }) => m.role === 'owner').key;
    let sheet = 'rules:\n';
    for (let i = 0; i < 600; i++) sheet += `  - action: tool_${i}\n    requires: [approved_${i % 7}, checked]\n`;
    const r = await fetch(`${url}/v1/rule-sheets/compile`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json' },
      body: JSON.stringify({ sheet }),
    });
    expect(r.status).toBe(200);
    expect(((await r.json()) as { colang: string }).colang).toContain('define flow tool_599');
  });

  it('answers / with the console when it is built, else with the page saying how to build it', async () => {
    const r = await fetch(`${url}/`);
    expect(r.headers.get('content-type')).toMatch(/^text\/html/);
    if (existsSync(join(root, 'apps/web/dist/index.html'))) expect(r.status).toBe(200);
    else {
      expect(r.status).toBe(503);
      expect(await r.text()).toContain('npm run build');
    }
  });
});
