// tollgate init with real parts: the bin spawned with every answer as a flag, then `tollgate serve` on the folder it
// made, where the owner's key signs in, activates the drafts and authorizes the tools, and the agent's calls are
// decided by the template's policy; the bin under a real pseudo-terminal (util-linux `script`) answering each
// prompt; --from-mcp on a client file whose secret reaches no file of the folder; and each refusal with its code.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listTemplates } from '@tollgate/engine/policy';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { openContext } from '../src/server/sqlite-context.ts';
import { runCli, workspace } from './cli-harness.ts';
import { RECORDER } from './mcp-fixture.ts';
import { type LooseJson, REPO_ROOT } from './server-harness.ts';

const BIN = join(REPO_ROOT, 'apps/api/bin/tollgate.cjs');
/**
 * The environment of a spawned bin: none of the variables that would choose a folder for it, and the tests' member
 * key secret, so the commands the test runs in-process open the keys the bin sealed.
 */
const ENV = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !k.startsWith('TOLLGATE_') || k === 'TOLLGATE_MEMBER_KEY_SECRET'),
);

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function tollgate(cwd: string, ...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const servers: ChildProcess[] = [];
afterAll(() => {
  for (const s of servers) s.kill('SIGTERM');
});

/** `tollgate serve --data DIR` on a free port; its URL once it says where it listens. */
function serve(dir: string): Promise<string> {
  const child = spawn(process.execPath, [BIN, 'serve', '--data', dir, '--port', '0'], { env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
  servers.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /serving the console and API at (http:\/\/[0-9.:]+)\//.exec(out);
      if (m) resolve(m[1] as string);
    });
    child.on('close', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
  });
}

async function call(url: string, method: string, path: string, key: string, body?: unknown): Promise<{ status: number; json: LooseJson }> {
  const res = await fetch(url + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, json: await res.json() };
}

/** Every stored version's text in a data folder, by id, read through the store as a node opens it. */
async function versionTexts(dir: string): Promise<Record<string, { text: string; running: boolean }>> {
  const ctx = await openContext(dir, { watch: false });
  try {
    const out: Record<string, { text: string; running: boolean }> = {};
    for (const id of await ctx.store.list()) {
      for (const v of await ctx.store.history(id)) {
        const stored = await ctx.store.getVersion(id, v.sequence);
        out[id] = { text: stored?.text ?? '', running: v.running };
      }
    }
    return out;
  } finally {
    ctx.events.close();
    await ctx.close();
  }
}

/** Every file below `dir`, hidden ones and the database included. */
function filesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

describe('tollgate init with every answer as a flag', () => {
  it('makes a workspace that serve serves: the owner activates it and the agent is decided by the template policy', async () => {
    const w = workspace();
    const made = await tollgate(
      w.dir,
      'init',
      'ws',
      '--owner',
      'ana',
      '--agent',
      'refund-bot',
      '--template',
      'support-refunds',
      '--param',
      'auto_limit=50',
      '--key-out',
      'owner.key',
      '--json',
    );
    expect(made.code, made.stderr).toBe(0);
    const out = JSON.parse(made.stdout);
    const dir = join(w.dir, 'ws');
    expect(out).toMatchObject({
      data: dir,
      owner: { name: 'ana', role: 'owner' },
      agent: { name: 'refund-bot' },
      template: 'support-refunds',
      running: false,
    });
    expect(out.documents.map((d: { id: string }) => d.id)).toEqual([
      'catalogues/refund-bot.yaml',
      'policies/refund-bot.policy.json',
      'policies/refund-bot.examples.json',
      'settings.yaml',
      'agents/refund-bot.agent.yaml',
    ]);
    // The owner's key is in the file asked for, owner-only, and nowhere in the folder.
    expect(readFileSync(join(w.dir, 'owner.key'), 'utf8')).toBe(`${out.owner.key}\n`);
    expect(statSync(join(w.dir, 'owner.key')).mode & 0o777).toBe(0o600);
    for (const f of filesBelow(dir)) expect(readFileSync(f).includes(out.owner.key), f).toBe(false);
    // Nothing beside the folder is left of its building.
    expect(readdirSync(w.dir).sort()).toEqual(['owner.key', 'ws']);

    const url = await serve(dir);
    const owner = out.owner.key as string;
    const agent = out.agent.key as string;
    const me = await call(url, 'GET', '/v1/me', owner);
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({ name: 'ana', role: 'owner' });
    // Nothing runs yet: the agent is not one the gate knows.
    const early = await call(url, 'POST', '/v1/agents/refund-bot/calls', agent, { tool: 'issue_refund', arguments: { amount: '20' } });
    expect(early.status).not.toBe(200);

    for (const d of out.documents) {
      const activated = await call(url, 'POST', `/v1/documents/${encodeURIComponent(d.id)}/activate`, owner, { sequence: d.sequence });
      expect(activated.status, JSON.stringify(activated.json)).toBe(200);
    }
    const tools = await call(url, 'GET', `/v1/catalogues/${encodeURIComponent('catalogues/refund-bot.yaml')}/tools`, owner);
    expect(tools.status).toBe(200);
    for (const t of tools.json.tools) {
      const authorized = await call(
        url,
        'POST',
        `/v1/catalogues/${encodeURIComponent('catalogues/refund-bot.yaml')}/tools/${t.name}/authorize`,
        owner,
        {
          digest: t.digest,
        },
      );
      expect(authorized.status, JSON.stringify(authorized.json)).toBe(200);
    }
    const decide = async (tool: string, args: Record<string, unknown>) =>
      (await call(url, 'POST', '/v1/agents/refund-bot/calls', agent, { tool, arguments: args })).json.decision;
    // auto_limit=50 as given: 40 goes through, 400 waits for a person, 4000 is over the approval limit.
    expect(await decide('issue_refund', { order_id: 'ord_1', amount: '40' })).toBe('allow');
    expect(await decide('issue_refund', { order_id: 'ord_1', amount: '400' })).toBe('require_approval');
    expect(await decide('issue_refund', { order_id: 'ord_1', amount: '4000' })).toBe('deny');
    expect(await decide('orders.read', {})).toBe('allow');
    // The owner's key is an owner's; the agent's key is not a member's.
    expect((await call(url, 'GET', '/v1/me', agent)).status).not.toBe(200);
  }, 120_000);
});

describe('tollgate init on a terminal', () => {
  it('asks each answer no flag gave, re-asks a refused one, and makes the workspace of the answers', async () => {
    const w = workspace();
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} init`;
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      cwd: w.dir,
      env: { ...ENV, TERM: 'dumb' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let screen = '';
    const waits: { text: string; resolve: () => void }[] = [];
    child.stdout.on('data', (c: Buffer) => {
      screen += c.toString();
      for (const wait of [...waits]) {
        if (screen.includes(wait.text)) {
          waits.splice(waits.indexOf(wait), 1);
          wait.resolve();
        }
      }
    });
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    const seen = (text: string) =>
      new Promise<void>((resolve) => {
        if (screen.includes(text)) resolve();
        else waits.push({ text, resolve });
      });
    const answer = async (prompt: string, text: string) => {
      await seen(prompt);
      child.stdin.write(`${text}\r`);
    };
    await answer('Data folder [.tollgate-data]: ', 'mine');
    await answer("Owner's member name [", 'carol');
    await answer("Agent's name [agent]: ", 'Not A Name');
    await seen('an agent name is 1-64 lowercase letters');
    child.stdin.write('helper-bot\r');
    await seen('2. read-only');
    await answer('Template (name or number) [support-refunds]: ', '2');
    expect(await closed, screen).toBe(0);
    expect(screen).toContain('NOTHING RUNS YET');

    const dir = join(w.dir, 'mine');
    const members = await runCli('members', 'list', '--data', dir, '--json');
    expect(JSON.parse(members.stdout)).toMatchObject([{ name: 'carol', role: 'owner' }]);
    const keys = JSON.parse((await runCli('keys', 'list', '--data', dir, '--agent', 'helper-bot', '--json')).stdout);
    expect(keys).toHaveLength(1);
    const texts = await versionTexts(dir);
    expect(JSON.parse(texts['policies/helper-bot.policy.json']?.text ?? '{}').rules[0]).toMatchObject({ id: 'reads', effect: 'allow' });
    expect(Object.values(texts).every((v) => !v.running)).toBe(true);
  }, 60_000);

  it('takes every default without a terminal, never waiting', async () => {
    const w = workspace();
    const made = await tollgate(w.dir, 'init');
    expect(made.code, made.stderr).toBe(0);
    const texts = await versionTexts(join(w.dir, '.tollgate-data'));
    expect(Object.keys(texts)).toContain('policies/agent.policy.json');
    expect(texts['catalogues/agent.yaml']?.text).toContain('issue_refund');
  }, 60_000);
});

describe('tollgate init --from-mcp', () => {
  it('drafts the upstreams, catalogue and policy as mcp import does, and writes no secret of the file', async () => {
    const w = workspace();
    const secret = `secret-${randomUUID()}`;
    const header = `header-${randomUUID()}`;
    const client = w.file('claude_desktop_config.json', {
      mcpServers: {
        recorder: {
          command: process.execPath,
          args: [RECORDER],
          env: { RECORD_FILE: join(w.dir, 'recorded.jsonl'), ORDERS_TOKEN: secret },
        },
        remote: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: `Bearer ${header}` } },
      },
    });
    const made = await tollgate(w.dir, 'init', 'ws', '--from-mcp', client, '--yes', '--upstream-timeout', '5', '--json');
    expect(made.code, made.stderr).toBe(0);
    const out = JSON.parse(made.stdout);
    expect(out.documents.map((d: { id: string }) => d.id)).toEqual([
      'mcp/servers.yaml',
      'catalogues/mcp-agent.yaml',
      'policies/mcp-agent.policy.json',
      'policies/mcp-agent.examples.json',
      'settings.yaml',
      'agents/mcp-agent.agent.yaml',
    ]);
    expect(out.tools).toContainEqual({ name: 'recorder_read', action: 'recorder.read', kind: 'read', server: 'recorder', tool: 'read' });
    expect(out.variables).toContainEqual(expect.objectContaining({ name: 'ORDERS_TOKEN', server: 'recorder' }));
    // The server it could not reach is reported, not drafted.
    expect(made.stderr).toMatch(/claude_desktop_config\.json:\d+:\d+: UPSTREAM_UNAVAILABLE: upstream remote could not be reached/);
    const dir = join(w.dir, 'ws');
    for (const f of filesBelow(dir)) {
      const bytes = readFileSync(f);
      expect(bytes.includes(secret), f).toBe(false);
      expect(bytes.includes(header), f).toBe(false);
    }
    // The drafted suite holds against the drafted policy, as `policy test` runs it.
    const texts = await versionTexts(dir);
    const policy = w.file('p.policy.json', texts['policies/mcp-agent.policy.json']?.text);
    const examples = w.file('p.examples.json', texts['policies/mcp-agent.examples.json']?.text);
    const tested = await runCli('policy', 'test', policy, '--examples', examples);
    expect(tested.code, tested.stdout).toBe(0);
    expect(texts['mcp/servers.yaml']?.text).toContain('ORDERS_TOKEN');
  }, 60_000);
});

describe('tollgate init refuses', () => {
  it('a folder that holds a workspace (WORKSPACE_EXISTS, exit 1), and moves it aside with --force', async () => {
    const w = workspace();
    const dir = join(w.dir, 'ws');
    expect((await runCli('init', dir, '--yes', '--owner', 'first')).code).toBe(0);
    const again = await runCli('init', dir, '--yes', '--owner', 'second');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('WORKSPACE_EXISTS');
    expect(JSON.parse((await runCli('members', 'list', '--data', dir, '--json')).stdout)).toMatchObject([{ name: 'first' }]);
    const forced = await runCli('init', dir, '--yes', '--owner', 'second', '--force');
    expect(forced.code, forced.stderr).toBe(0);
    expect(JSON.parse((await runCli('members', 'list', '--data', dir, '--json')).stdout)).toMatchObject([{ name: 'second' }]);
    const aside = readdirSync(w.dir).find((e) => e.startsWith('ws.replaced-')) as string;
    expect(JSON.parse((await runCli('members', 'list', '--data', join(w.dir, aside), '--json')).stdout)).toMatchObject([{ name: 'first' }]);
  }, 60_000);

  it('a folder of other files (FOLDER_NOT_EMPTY, exit 1), --force or not', async () => {
    const w = workspace();
    mkdirSync(join(w.dir, 'project'));
    writeFileSync(join(w.dir, 'project', 'notes.txt'), 'mine');
    for (const force of [[], ['--force']]) {
      const r = await runCli('init', join(w.dir, 'project'), '--yes', ...force);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('FOLDER_NOT_EMPTY');
    }
    expect(readdirSync(join(w.dir, 'project'))).toEqual(['notes.txt']);
  });

  it('an unknown template (UNKNOWN_TEMPLATE, exit 1) and a refused parameter (exit 1), making nothing', async () => {
    const w = workspace();
    const unknown = await runCli('init', join(w.dir, 'ws'), '--template', 'no-such', '--json');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('UNKNOWN_TEMPLATE');
    expect(JSON.parse(unknown.stdout).errors[0].code).toBe('UNKNOWN_TEMPLATE');
    const param = await runCli('init', join(w.dir, 'ws'), '--template', 'support-refunds', '--param', 'auto_limit=5000');
    expect(param.code).toBe(1);
    expect(param.stderr).toContain('PARAMETER_ORDER');
    expect(readdirSync(w.dir)).toEqual([]);
  });

  it('an unreadable --from-mcp file (UNREADABLE, exit 2) and one that is not a client file (exit 1), making nothing', async () => {
    const w = workspace();
    const missing = await runCli('init', join(w.dir, 'ws'), '--from-mcp', join(w.dir, 'nope.json'), '--yes');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('UNREADABLE');
    const notClient = await runCli('init', join(w.dir, 'ws'), '--from-mcp', w.file('c.json', { servers: [] }), '--yes');
    expect(notClient.code).toBe(1);
    expect(existsSync(join(w.dir, 'ws'))).toBe(false);
  });

  it('--template beside --from-mcp, and a malformed name, as usage errors (exit 2)', async () => {
    const both = await runCli('init', '--from-mcp', 'x.json', '--template', 'read-only');
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('usage: tollgate init');
    expect((await runCli('init', '--agent', 'Bad Agent', '--yes')).code).toBe(2);
  });
});

describe('tollgate init, over templates and names', () => {
  it('drafts documents that verify, whose example suite holds, for any template and names', async () => {
    const base = workspace();
    const names = listTemplates().map((t) => t.name);
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...names),
        fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,20}$/),
        fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._@+-]{0,20}$/),
        async (template, agent, owner) => {
          const dir = join(base.dir, `ws${n++}`);
          const r = await runCli('init', dir, '--yes', '--template', template, '--agent', agent, '--owner', owner, '--json');
          expect(r.code, r.stderr).toBe(0);
          // The drafts written out as a documents folder: `tollgate verify` checks each and runs the suite.
          const texts = await versionTexts(dir);
          const folder = join(base.dir, `docs${n}`);
          for (const [id, v] of Object.entries(texts)) {
            mkdirSync(join(folder, id, '..'), { recursive: true });
            writeFileSync(join(folder, id), v.text);
          }
          const verified = await runCli('verify', folder);
          expect(verified.code, verified.stdout + verified.stderr).toBe(0);
          expect(JSON.parse((await runCli('members', 'list', '--data', dir, '--json')).stdout)).toMatchObject([
            { name: owner, role: 'owner' },
          ]);
        },
      ),
      { numRuns: 6 },
    );
  }, 120_000);
});
