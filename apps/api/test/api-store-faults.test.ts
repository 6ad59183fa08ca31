// The store as an operator meets it (docs/store.md, "Faults and what to do"), through real `tollgate serve`
// processes and real HTTP: a hand edit made while the server was stopped, a damaged index, a store that
// cannot be opened, a lock another process holds (health and the gate answer at once, a write answers 503
// with Retry-After), a damaged running version, a pinned version through 100+ edits, a data folder kept
// in git, and `tollgate store check|repair`.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runCli } from './cli-harness.ts';
import { type LooseJson, spawnServer, startServer, type TestServer } from './server-harness.ts';

const POLICY = 'policies/refunds.policy.json';
const dirs: string[] = [];
const children: ChildProcess[] = [];
const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop();
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-faults-'));
  dirs.push(dir);
  return dir;
}

const docDir = (data: string, id = POLICY) => join(data, 'documents', '.tollgate', 'documents', encodeURIComponent(id));
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const versionShas = (data: string, id = POLICY) =>
  Object.fromEntries(readdirSync(join(docDir(data, id), 'versions')).map((n) => [n, sha(join(docDir(data, id), 'versions', n))]));

async function serve(data: string): Promise<{ url: string; child: ChildProcess }> {
  const s = await spawnServer(data);
  children.push(s.child);
  s.child.removeAllListeners('exit');
  return s;
}

function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

async function get(url: string, path: string, key?: string): Promise<{ status: number; json: LooseJson }> {
  const res = await fetch(url + path, { headers: key ? { authorization: `Bearer ${key}` } : {} });
  return { status: res.status, json: await res.json() };
}

function ownerKey(data: string): string {
  const keys = JSON.parse(readFileSync(join(data, 'demo-keys.json'), 'utf8')) as { members: { role: string; key: string }[] };
  return (keys.members.find((m) => m.role === 'owner') as { key: string }).key;
}

const enc = encodeURIComponent(POLICY);

describe('restarts over a folder touched by hand', () => {
  it('starts after a hand edit made while it was stopped, and keeps it as a version', { timeout: 60_000 }, async () => {
    const data = dataDir();
    const first = await serve(data);
    expect(await stop(first.child)).toBe(0);
    const text = `${readFileSync(join(data, 'documents', POLICY), 'utf8')}\n`;
    writeFileSync(join(data, 'documents', POLICY), text);
    const second = await serve(data);
    const doc = await get(second.url, `/v1/documents/${enc}`, ownerKey(data));
    expect(doc.json).toMatchObject({ text, version: { author: { kind: 'external' } } });
  });

  it('starts over a half-truncated index, rebuilt from the version files, with every version file unchanged, and health says so', {
    timeout: 60_000,
  }, async () => {
    const data = dataDir();
    const first = await serve(data);
    const before = await get(first.url, `/v1/documents/${enc}/history`, ownerKey(data));
    expect(await stop(first.child)).toBe(0);
    const index = join(docDir(data), 'index.json');
    writeFileSync(index, readFileSync(index).subarray(0, Math.floor(readFileSync(index).length / 2)));
    const shas = versionShas(data);
    const second = await serve(data);
    const after = await get(second.url, `/v1/documents/${enc}/history`, ownerKey(data));
    expect(after.json.versions.map((v: LooseJson) => [v.sequence, v.digest, v.running])).toEqual(
      before.json.versions.map((v: LooseJson) => [v.sequence, v.digest, v.running]),
    );
    expect(versionShas(data)).toEqual(shas);
    const health = await get(second.url, '/v1/health');
    expect(health.json).toMatchObject({ status: 'degraded', problems: [{ id: POLICY, code: 'INDEX_REBUILT' }] });
  });

  it('refuses to start when no version file can rebuild a damaged index, naming the file and the command that mends it', {
    timeout: 60_000,
  }, async () => {
    const data = dataDir();
    const first = await serve(data);
    expect(await stop(first.child)).toBe(0);
    writeFileSync(join(docDir(data), 'index.json'), '{"id":');
    for (const name of readdirSync(join(docDir(data), 'versions'))) writeFileSync(join(docDir(data), 'versions', name), '');
    const run = await runCli('serve', '--data', data, '--port', '0');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(join('documents', enc, 'index.json'));
    expect(run.stderr).toContain(`tollgate store repair --data ${data}`);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    const check = await runCli('store', 'check', '--data', data);
    expect(check.code).toBe(1);
    expect(check.stdout).toContain('DAMAGED_INDEX');
    const repair = await runCli('store', 'repair', '--data', data);
    expect(repair.code).toBe(0);
    expect((await runCli('store', 'check', '--data', data)).code).toBe(0);
  });
});

describe('a running server', () => {
  async function server(): Promise<TestServer> {
    const s = await startServer({ dataDir: dataDir() });
    servers.push(s);
    return s;
  }

  it('answers health and the gate within 100 ms while a write waits for a lock another process holds; the write answers 503 with Retry-After', {
    timeout: 60_000,
  }, async () => {
    const s = await server();
    const refund = { tool: 'issue_refund', arguments: { amount: '5', order: 'A-1' } };
    // The gate's first call loads the agent: warm it, so what is measured is the wait, not the load.
    expect((await s.call('POST', '/v1/agents/support-bot/calls', { key: s.key('agent'), body: refund })).status).toBe(200);
    const holder = spawn(
      process.execPath,
      [
        '-e',
        "require('fs').writeFileSync(process.argv[1], String(process.pid)); console.log('held'); setInterval(() => {}, 1000)",
        join(s.dataDir, 'documents', '.tollgate', 'lock'),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    children.push(holder);
    await new Promise((r) => holder.stdout?.once('data', r));
    const running = (await s.call('GET', `/v1/documents/${enc}`, { key: s.key('owner') })).json;
    const edit = s.call('POST', `/v1/documents/${enc}/edits`, {
      key: s.key('owner'),
      body: { content: `${running.text}\n`, reason: 'while locked', based_on: running.version.sequence },
    });
    // The edit is validated first (CPU work, not waiting); what is measured is the wait for the lock after it.
    await new Promise((r) => setTimeout(r, 500));
    // Each answer is timed as the best of three tries, so the box's own load (2 shared cores) is not
    // measured: a loop blocked by the wait would make all three slow. None may come near the 3 s wait.
    const timed = async (send: () => Promise<{ status: number }>) => {
      const tries: number[] = [];
      for (let i = 0; i < 3; i++) {
        const start = performance.now();
        expect((await send()).status).toBe(200);
        tries.push(performance.now() - start);
      }
      all.push(...tries);
      return Math.min(...tries);
    };
    const all: number[] = [];
    const best: number[] = [];
    for (let round = 0; round < 3; round++) {
      best.push(await timed(() => s.call('GET', '/v1/health')));
      best.push(await timed(() => s.call('POST', '/v1/agents/support-bot/calls', { key: s.key('agent'), body: refund })));
    }
    const shown = `answer times (ms): ${all.map((t) => t.toFixed(0)).join(', ')}`;
    expect(Math.max(...best), shown).toBeLessThan(100);
    expect(Math.max(...all), shown).toBeLessThan(1000);
    const answered = await edit;
    expect(answered.status).toBe(503);
    expect(answered.json).toMatchObject({
      status: 'refused',
      reasons: [expect.objectContaining({ code: 'LOCKED', message: expect.stringContaining('locked') })],
    });
    const raw = await fetch(`${s.url}/v1/documents/${enc}/activate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.key('owner')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ sequence: 1 }),
    });
    expect(raw.status).toBe(503);
    expect(raw.headers.get('retry-after')).toBe('1');
    expect(((await raw.json()) as LooseJson).error.code).toBe('LOCKED');
    holder.kill('SIGKILL');
  });

  it('reports a damaged running version by name, refuses to activate a damaged one, and takes an edit over it', {
    timeout: 60_000,
  }, async () => {
    const s = await server();
    const owner = s.key('owner');
    const running = (await s.call('GET', `/v1/documents/${enc}`, { key: owner })).json;
    const saved = await s.call('POST', `/v1/documents/${enc}/edits`, {
      key: owner,
      body: { content: `${running.text}\n`, reason: 'second', based_on: running.version.sequence },
    });
    expect(saved.status).toBe(201);
    const second = saved.json.version.sequence as number;
    const file = join(docDir(s.dataDir), 'versions', `${second}.json`);
    writeFileSync(file, readFileSync(file, 'utf8').replace('second', 'sEcond'));
    const damagedSha = sha(file);
    expect((await s.call('GET', `/v1/documents/${enc}`, { key: owner })).json.error.code).toBe('DAMAGED');
    const health = (await s.call('GET', '/v1/health')).json;
    expect(health).toMatchObject({ status: 'degraded', problems: [{ id: POLICY, code: 'DAMAGED_VERSION' }] });
    expect(health.problems[0].message).toContain(`versions/${second}.json`);
    const list = (await s.call('GET', '/v1/documents', { key: owner })).json.documents.find((d: LooseJson) => d.id === POLICY);
    expect(list.problems).toEqual(expect.arrayContaining([expect.objectContaining({ source: 'store', code: 'DAMAGED_VERSION' })]));
    await s.call('POST', `/v1/documents/${enc}/activate`, { key: owner, body: { sequence: running.version.sequence } });
    const refused = await s.call('POST', `/v1/documents/${enc}/activate`, { key: owner, body: { sequence: second } });
    expect(refused.status).toBe(409);
    expect(refused.json.error.code).toBe('DAMAGED');
    // The store's own account of that version, which names the file.
    expect(refused.json.error.message).toContain(`versions/${second}.json`);
    const mend = await s.call('POST', `/v1/documents/${enc}/edits`, {
      key: owner,
      body: { content: `${running.text}\n\n`, reason: 'mend', based_on: running.version.sequence },
    });
    expect(mend.status).toBe(201);
    expect(sha(file)).toBe(damagedSha);
  });

  it('keeps the policy version a rule set pins through 105 further versions', { timeout: 60_000 }, async () => {
    const s = await server();
    const running = await s.ctx.store.get(POLICY);
    for (let i = 1; i <= 105; i++) {
      await s.ctx.store.save({
        id: POLICY,
        text: `${running?.text}${' '.repeat(i)}`,
        author: { kind: 'person', label: 't' },
        reason: `edit ${i}`,
      });
    }
    expect((await s.ctx.store.history(POLICY)).length).toBeLessThanOrEqual(101);
    const pinned = await s.call('GET', `/v1/documents/${enc}/versions/1`, { key: s.key('owner') });
    expect(pinned.status).toBe(200);
  });
});

describe('a data folder kept in git', () => {
  it('shows only documents to git: the store state, the database and the demo keys are ignored', { timeout: 60_000 }, async () => {
    const data = dataDir();
    const s = await startServer({ dataDir: data });
    servers.push(s);
    execFileSync('git', ['init', '-q'], { cwd: data });
    const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: data, encoding: 'utf8' });
    const files = status
      .split('\n')
      .filter(Boolean)
      .map((l) => l.slice(3));
    expect(files).toContain('.gitignore');
    for (const f of files) expect(f === '.gitignore' || (f.startsWith('documents/') && !f.startsWith('documents/.tollgate/'))).toBe(true);
  });
});

describe('tollgate store check and repair', () => {
  it('exit 0 on a whole store, 1 naming an orphan, 0 after repair moves it to lost+found, 2 without a data folder', {
    timeout: 60_000,
  }, async () => {
    const data = dataDir();
    const s = await startServer({ dataDir: data });
    await s.stop();
    expect(await runCli('store', 'check', '--data', data)).toMatchObject({ code: 0, stdout: 'store check: ok\n' });
    const orphan = join(docDir(data), 'versions', '99.json');
    writeFileSync(orphan, '{}');
    const check = await runCli('store', 'check', '--data', data, '--json');
    expect(check.code).toBe(1);
    expect(JSON.parse(check.stdout).findings).toEqual([expect.objectContaining({ code: 'ORPHAN_VERSION', id: POLICY })]);
    const repair = await runCli('store', 'repair', '--data', data);
    expect(repair.code).toBe(0);
    expect(repair.stdout).toContain('lost+found');
    expect((await runCli('store', 'check', '--data', data)).code).toBe(0);
    expect((await runCli('store', 'check', '--data', join(data, 'nope'))).code).toBe(2);
    expect((await runCli('store', 'check')).code).toBe(2);
  });

  it('repair keeps a hand-edited agent that does not load as rejected: the agent keeps answering, check says why', {
    timeout: 60_000,
  }, async () => {
    const data = dataDir();
    const s = await startServer({ dataDir: data });
    const agent = join(data, 'documents', 'agents', 'support-bot.agent.yaml');
    const body = { tool: 'issue_refund', arguments: { order_id: 'o-1', amount: 10 } };
    const before = await s.call('POST', '/v1/agents/support-bot/calls', { key: s.key('agent'), body });
    expect(before.status).toBe(200);
    await s.stop();
    writeFileSync(agent, `${readFileSync(agent, 'utf8')}colour: blue\n`);
    const check = await runCli('store', 'check', '--data', data);
    expect(check.code).toBe(1);
    expect(check.stdout).toMatch(/^WORKING_COPY_DIFFERS: agents\/support-bot\.agent\.yaml does not load \(/);
    const repair = await runCli('store', 'repair', '--data', data);
    expect(repair.code).toBe(1);
    expect(repair.stdout).toContain('kept agents/support-bot.agent.yaml as a rejected version: it does not load');
    expect(repair.stdout).toMatch(/WORKING_COPY_REJECTED: agents\/support-bot\.agent\.yaml does not load .* version 1 keeps running/);
    const after = await startServer({ dataDir: data });
    servers.push(after);
    const history = (await after.ctx.store.history('agents/support-bot.agent.yaml')).map((v) => [v.sequence, v.running, v.rejected]);
    expect(history).toEqual([
      [1, true, false],
      [2, false, true],
    ]);
    // Calls are decided by version 1 as before, never refused as AGENT_NOT_LOADABLE.
    const again = await after.call('POST', '/v1/agents/support-bot/calls', { key: after.key('agent'), body });
    expect([again.status, again.json.decision]).toEqual([200, before.json.decision]);
  });
});
