// `tollgate serve` takes its address and data folder from the environment too (docs/cli.md): TOLLGATE_HOST,
// TOLLGATE_PORT and TOLLGATE_DATA, the flags winning; a port is digits only, 0 to 65535, from either. A real
// process started with the variables alone serves the demo from the folder they name, and says where; the database
// comes from TOLLGATE_DATABASE_URL and is named with its password hidden.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseOf, dataFolderOf, listenAddressOf } from '../src/cli/options.ts';
import { runCli, withEnv } from './cli-harness.ts';
import { REPO_ROOT } from './server-harness.ts';

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const c of children) {
    if (c.exitCode !== null || c.signalCode !== null) continue;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGTERM');
    await exited;
  }
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('serve from the environment', () => {
  it('serves the demo from TOLLGATE_DATA on TOLLGATE_HOST:TOLLGATE_PORT, and says where', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'tollgate-env-')), 'workspace');
    dirs.push(dataDir);
    const child = spawn(process.execPath, [join(REPO_ROOT, 'apps/api/bin/tollgate.cjs'), 'serve', '--demo'], {
      env: { ...process.env, TOLLGATE_DATA: dataDir, TOLLGATE_PORT: '0', TOLLGATE_HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`no start: ${out}`)), 30_000);
      child.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const m = /^Tollgate is serving .*$/m.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[0]);
        }
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
    const url = /at (http:\/\/127\.0\.0\.1:\d+)\//.exec(line)?.[1] as string;
    expect(url).toBeDefined();
    expect(line).toContain(dataDir);
    expect((await fetch(`${url}/v1/health`)).status).toBe(200);
    expect(existsSync(join(dataDir, 'demo-keys.json'))).toBe(true);
  });

  it('lets the flags win over the variables', () => {
    expect(listenAddressOf({ port: '9000', host: '0.0.0.0' }, { TOLLGATE_PORT: '9001', TOLLGATE_HOST: '127.0.0.2' })).toEqual({
      host: '0.0.0.0',
      port: 9000,
    });
    expect(listenAddressOf({}, { TOLLGATE_PORT: '9001', TOLLGATE_HOST: '' })).toEqual({ host: '127.0.0.1', port: 9001 });
    expect(listenAddressOf({}, {})).toEqual({ host: '127.0.0.1', port: 8787 });
    expect(dataFolderOf({ data: 'a' }, { TOLLGATE_DATA: 'b' })).toBe('a');
    expect(dataFolderOf({}, { TOLLGATE_DATA: 'b' })).toBe('b');
    expect(dataFolderOf({}, { TOLLGATE_DATA: '' })).toBeUndefined();
  });

  it('takes a port only as digits from 0 to 65535, from a flag or a variable (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 8 }), fc.integer({ min: -10, max: 70000 }).map(String)), (text) => {
        const ok = /^[0-9]{1,5}$/.test(text) && Number(text) <= 65535;
        for (const read of [() => listenAddressOf({ port: text }, {}), () => listenAddressOf({}, { TOLLGATE_PORT: text })]) {
          if (text === '' && read.toString().includes('TOLLGATE_PORT')) continue;
          if (ok) expect(read().port).toBe(Number(text));
          else expect(read).toThrow(/is a whole number 0-65535/);
        }
      }),
    );
  });

  it('refuses a port that is not one before anything opens (exit 2)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-env-'));
    dirs.push(dataDir);
    for (const port of ['8787.0', '1e3', '65536', '-1', '80a']) {
      const run = await withEnv('TOLLGATE_PORT', port, () => runCli('serve', '--data', dataDir));
      expect(run.code, port).toBe(2);
      expect(run.stderr, port).toContain('TOLLGATE_PORT');
    }
    expect(existsSync(join(dataDir, 'tollgate.db'))).toBe(false);
  });

  it('takes the database from TOLLGATE_DATABASE_URL, the flag winning, and names it with its password hidden', async () => {
    expect(databaseOf({ database: 'postgres://a/x' }, { TOLLGATE_DATABASE_URL: 'postgres://b/y' })).toBe('postgres://a/x');
    expect(databaseOf({}, { TOLLGATE_DATABASE_URL: 'postgres://b/y' })).toBe('postgres://b/y');
    expect(databaseOf({}, { TOLLGATE_DATABASE_URL: '' })).toBeUndefined();
    // Port 1 answers nothing: serve names the database it was given, the password hidden, and opens nothing else.
    const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-env-'));
    dirs.push(dataDir);
    const url = 'postgres://tollgate:s3cret-pass@127.0.0.1:1/tollgate';
    const run = await withEnv('TOLLGATE_DATABASE_URL', url, () =>
      withEnv('TOLLGATE_PG_CONNECT_TIMEOUT_MS', '2000', () => runCli('serve', '--data', dataDir)),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('DATABASE_UNREACHABLE: postgres://tollgate:***@127.0.0.1:1/tollgate does not answer');
    expect(run.stderr + run.stdout).not.toContain('s3cret-pass');
    expect(existsSync(join(dataDir, 'tollgate.db'))).toBe(false);
  });
});
