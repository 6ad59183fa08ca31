// tollgate keys create / members list, and the demo seeded once per data folder.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { seedDemo } from '../src/server/demo.ts';
import { openContext } from '../src/server/sqlite-context.ts';
import { openDatabase } from '../src/server/state/db.ts';
import { hashKey } from '../src/server/state/members/credentials.ts';
import { ROLES } from '../src/server/state/members/model.ts';
import { authenticateKey } from '../src/server/state/members/sqlite.ts';
import { runCli } from './cli-harness.ts';

const dirs: string[] = [];
function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-keys-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('tollgate keys create and members list', () => {
  it('creates a member with a key that authenticates, stored only as a hash', async () => {
    const data = dataDir();
    const run = await runCli('keys', 'create', '--data', data, '--member', 'nora', '--role', 'approver', '--json');
    expect(run.code).toBe(0);
    const made = JSON.parse(run.stdout);
    expect(made).toMatchObject({ member: 'nora', role: 'approver', grants: [] });
    const db = openDatabase(join(data, 'tollgate.db'));
    try {
      expect(authenticateKey(db, made.key, new Date())).toMatchObject({
        principal: { kind: 'member', member: { name: 'nora', role: 'approver' } },
      });
      const stored = db.prepare('SELECT hash FROM api_keys').all() as { hash: string }[];
      expect(stored).toEqual([{ hash: hashKey(made.key) }]);
      expect(readFileSync(join(data, 'tollgate.db')).includes(Buffer.from(made.key))).toBe(false);
    } finally {
      db.close();
    }
    const list = await runCli('members', 'list', '--data', data, '--json');
    expect(JSON.parse(list.stdout)).toEqual([{ id: made.id, name: 'nora', role: 'approver', signing: true }]);
  });

  it('creates an agent key with a grant, and a second key for an existing member', async () => {
    const data = dataDir();
    const agent = await runCli('keys', 'create', '--data', data, '--agent', 'support-bot', '--grant', 'catalogue', '--json');
    expect(JSON.parse(agent.stdout)).toMatchObject({ agent: 'support-bot', grants: ['catalogue'] });
    await runCli('keys', 'create', '--data', data, '--member', 'olga', '--role', 'owner');
    const again = await runCli('keys', 'create', '--data', data, '--member', 'olga');
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^tg_\S+\n$/);
  });

  it('refuses bad input with exit 2: an unknown role or grant, both member and agent, no data folder, a role change', async () => {
    const data = dataDir();
    expect((await runCli('keys', 'create', '--data', data, '--member', 'x', '--role', 'boss')).code).toBe(2);
    expect((await runCli('keys', 'create', '--data', data, '--agent', 'a', '--grant', 'everything')).code).toBe(2);
    expect((await runCli('keys', 'create', '--data', data, '--member', 'x', '--agent', 'a')).code).toBe(2);
    expect((await runCli('keys', 'create', '--member', 'x', '--role', 'viewer')).code).toBe(2);
    await runCli('keys', 'create', '--data', data, '--member', 'vic', '--role', 'viewer');
    const change = await runCli('keys', 'create', '--data', data, '--member', 'vic', '--role', 'owner');
    expect(change.code).toBe(2);
    expect(change.stderr).toContain("a key does not change a member's role");
  });
});

describe('keys create on a folder that is not there, and the grants of a role', () => {
  it('makes the folder as serve does (a real process): exit 0, a key, the .gitignore', () => {
    const data = join(dataDir(), 'new', 'nested');
    const bin = new URL('../bin/tollgate.cjs', import.meta.url).pathname;
    const run = spawnSync(process.execPath, [bin, 'keys', 'create', '--data', data, '--member', 'ada', '--role', 'admin'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^tg_\S+\n$/);
    expect(readFileSync(join(data, '.gitignore'), 'utf8')).toContain('tollgate.db');
    const db = openDatabase(join(data, 'tollgate.db'));
    try {
      expect(authenticateKey(db, run.stdout.trim(), new Date())).toMatchObject({ principal: { kind: 'member', grants: ['catalogue'] } });
    } finally {
      db.close();
    }
  });

  it("gives each role's key the grants its role's key has in the demo workspace, plus any --grant", async () => {
    const demo = dataDir();
    const ctx = await openContext(demo, { watch: false });
    const keys = await seedDemo(ctx);
    await ctx.close();
    const demoDb = openDatabase(join(demo, 'tollgate.db'));
    const cli = dataDir();
    try {
      for (const role of ROLES) {
        const demoKey = keys?.members.find((m) => m.role === role)?.key as string;
        const made = JSON.parse((await runCli('keys', 'create', '--data', cli, '--member', `m-${role}`, '--role', role, '--json')).stdout);
        expect(authenticateKey(demoDb, demoKey, new Date()), role).toMatchObject({ principal: { grants: made.grants } });
      }
      const admin = JSON.parse((await runCli('keys', 'create', '--data', cli, '--member', 'm-admin', '--grant', 'model', '--json')).stdout);
      expect(admin.grants).toEqual(['catalogue', 'model']);
      const viewer = JSON.parse((await runCli('keys', 'create', '--data', cli, '--member', 'm-viewer', '--json')).stdout);
      expect(viewer.grants).toEqual([]);
    } finally {
      demoDb.close();
    }
  });

  it('says a role that is not one is not a role, naming the roles, with a pointer to the usage', async () => {
    const data = dataDir();
    for (const args of [
      ['--member', 'x', '--role', 'wizard'],
      ['--member', 'x', '--role', 'Admin'],
    ]) {
      const run = await runCli('keys', 'create', '--data', data, ...args);
      expect(run.code).toBe(2);
      const [reason, usage, more, ...rest] = run.stderr.split('\n');
      expect(reason).toBe(`tollgate keys create: ${args[3]} is not a role; the roles are owner, admin, approver, developer, viewer`);
      expect(usage).toMatch(/^usage: tollgate keys create .*--role ROLE/);
      expect(more).toBe("run 'tollgate keys create --help' for more");
      expect(rest).toEqual(['']);
    }
    expect(existsSync(join(data, 'tollgate.db'))).toBe(false);
  });

  it('never ends in an internal error for a --data folder that is not there or is a file, on any command', async () => {
    const dir = dataDir();
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    writeFileSync(join(dir, 'call.json'), '{"tool": "t", "arguments": {}}');
    writeFileSync(join(dir, 'set.json'), '{}');
    writeFileSync(join(dir, 'mcp.json'), '{"mcpServers": {}}');
    const commands = (data: string) => [
      ['keys', 'create', '--data', data, '--member', 'm', '--role', 'viewer'],
      ['members', 'list', '--data', data],
      ['ruleset', 'validate', join(dir, 'set.json'), '--data', data],
      ['ruleset', 'run', 'rulesets/a.ruleset.json', '--call', join(dir, 'call.json'), '--data', data],
      ['store', 'check', '--data', data],
      ['store', 'repair', '--data', data],
      ['mcp', 'import', join(dir, 'mcp.json'), '--data', data],
      ['serve', '--data', data, '--port', '0', '--host', '127.0.0.1'],
    ];
    for (const argv of commands(file)) {
      const run = await runCli(...argv);
      expect(run.code, argv.join(' ')).toBe(2);
      expect(run.stderr, argv.join(' ')).not.toContain('internal error');
    }
    // A command that only reads refuses a folder that is not there; one that writes makes it.
    for (const argv of commands(join(dir, 'nothing-here')).slice(1, 6)) {
      const run = await runCli(...argv);
      expect(run.code, argv.join(' ')).toBe(2);
      expect(run.stderr, argv.join(' ')).not.toContain('internal error');
      expect(existsSync(join(dir, 'nothing-here')), argv.join(' ')).toBe(false);
    }
    expect((await runCli('members', 'list', '--data', join(dir, 'nothing-here'))).stderr).toContain('DATA_MISSING');
  });
});

describe('the demo workspace', () => {
  it('is seeded once: a second start on the same folder seeds nothing', async () => {
    const data = dataDir();
    const first = await openContext(data, { watch: false });
    const keys = await seedDemo(first);
    expect(keys?.members.map((m) => m.role).sort()).toEqual(['admin', 'approver', 'developer', 'owner', 'viewer']);
    expect(keys?.agents.map((a) => a.name)).toEqual(['support-bot', 'refunds-bot']);
    await first.close();
    const second = await openContext(data, { watch: false });
    expect(await seedDemo(second)).toBeUndefined();
    expect((second.db.prepare('SELECT COUNT(*) AS n FROM members').get() as { n: number }).n).toBe(5);
    for (const id of await second.store.list()) expect((await second.store.history(id)).length).toBe(1);
    await second.close();
  });
});

describe('GET /v1/me', () => {
  it("names the member behind a key, and refuses an agent's key", async () => {
    const { startServer } = await import('./server-harness.ts');
    const s = await startServer();
    try {
      const me = await s.call('GET', '/v1/me', { key: s.key('approver') });
      expect(me.status).toBe(200);
      expect(me.json).toEqual({ id: s.keys.members.find((m) => m.role === 'approver')?.id, name: 'april', role: 'approver', grants: [] });
      expect((await s.call('GET', '/v1/me', { key: s.key('developer') })).json).toMatchObject({ role: 'developer', grants: ['catalogue'] });
      expect((await s.call('GET', '/v1/me', { key: s.key('agent') })).json.error.code).toBe('MEMBER_REQUIRED');
      expect((await s.call('GET', '/v1/me')).status).toBe(401);
    } finally {
      await s.stop();
    }
  });
});

describe('the console and the API on one origin', () => {
  it('answers an unknown API path with a JSON 404, and other paths with the console', async () => {
    const { createApp } = await import('../src/server/app.ts');
    const { mkdirSync, writeFileSync } = await import('node:fs');
    const dist = dataDir();
    mkdirSync(dist, { recursive: true });
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>console</title>');
    const app = createApp({ webDist: dist });
    const api = await app.request('/v1/nope');
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ error: { code: 'NO_ROUTE' } });
    const page = await app.request('/documents');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>console</title>');
  });
});
