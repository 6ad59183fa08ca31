// tollgate mcp import with real parts: the bundled CLI, spawned on an MCP client's configuration, lists the tools
// of the recording upstream, of the MCP maintainers' reference server and of Tollgate's own /mcp (over Streamable
// HTTP, a secret header), reports the servers it cannot import, and saves its drafts as versions that do not run
// in the data folder of a server on loopback, which then runs them only once an owner activates them.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { catalogueFormatOf, compilePolicy, compileTool, readCatalogue, readUpstreams, validateDocument } from '@tollgate/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspace } from './cli-harness.ts';
import { EVERYTHING, mapUpstreams, nodeUpstream, RECORDER } from './mcp-fixture.ts';
import { type LooseJson, okJson, REPO_ROOT, startServer, type TestServer } from './server-harness.ts';

const BIN = join(REPO_ROOT, 'apps/api/bin/tollgate.cjs');
const IDS = ['mcp/servers.yaml', 'catalogues/mcp-agent.yaml', 'policies/mcp-agent.policy.json', 'agents/mcp-agent.agent.yaml'];
const ENV_SECRET = `env-secret-${randomUUID()}`;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The bin as a child process: the test's own server must keep answering while it runs (Tollgate's /mcp is an upstream). */
function tollgate(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let s: TestServer;
let headerSecret: string;
let client: string;
let imported: Run;
let result: LooseJson;
const dir = workspace();

/** The text of a document's stored version, read as an owner. */
async function versionText(id: string, sequence: number): Promise<string> {
  return (await okJson(s.call('GET', `/v1/documents/${encodeURIComponent(id)}/versions/${sequence}`, { key: s.key('owner') }))).text;
}

const sequenceOf = (id: string): number => result.documents.find((d: { id: string }) => d.id === id).sequence;

beforeAll(async () => {
  s = await startServer();
  // Tollgate's own /mcp is an upstream here: it offers support-bot's read_order, mapped to a recorder.
  await mapUpstreams(s, [nodeUpstream('orders', RECORDER)], { read_order: { server: 'orders', tool: 'read' } });
  // A key of its own, so the secret is in no file of the data folder (the demo's keys file holds the seeded ones).
  headerSecret = await s.ctx.state.createKey({ agent: 'support-bot' });
  client = dir.file('claude_desktop_config.json', {
    mcpServers: {
      recorder: {
        command: process.execPath,
        args: [RECORDER],
        env: { RECORD_FILE: join(dir.dir, 'recorded.jsonl'), ORDERS_TOKEN: ENV_SECRET },
      },
      Everything: { command: process.execPath, args: [EVERYTHING, 'stdio'], cwd: dir.dir },
      tollgate: { type: 'http', url: `${s.url}/mcp`, headers: { Authorization: `Bearer ${headerSecret}` } },
      broken: { command: '/nonexistent/upstream' },
      legacy: { type: 'sse', url: 'http://127.0.0.1:9/sse' },
    },
  });
  imported = await tollgate('mcp', 'import', client, '--data', s.dataDir, '--upstream-timeout', '10', '--json');
  expect(imported.code, imported.stderr).toBe(0);
  result = JSON.parse(imported.stdout);
}, 60_000);

afterAll(async () => {
  await s?.stop();
});

describe('tollgate mcp import', () => {
  it('drafts the upstreams, a catalogue, a policy and an agent, each a version that does not run', async () => {
    expect(result.documents.map((d: { id: string }) => d.id)).toEqual(IDS);
    expect(result.documents.every((d: { running: boolean }) => d.running === false)).toBe(true);
    for (const id of IDS) {
      const history = await okJson(s.call('GET', `/v1/documents/${encodeURIComponent(id)}/history`, { key: s.key('owner') }));
      const drafted = history.versions.find((v: { sequence: number }) => v.sequence === sequenceOf(id));
      expect(drafted, id).toMatchObject({ running: false, author: { kind: 'system', label: 'tollgate mcp import' } });
    }
    // The upstreams that ran keep running; the new ones are not yet.
    const running = await okJson(s.call('GET', '/v1/documents/mcp%2Fservers.yaml', { key: s.key('owner') }));
    expect(readUpstreams(running.text).ok && readUpstreams(running.text)).toMatchObject({ upstreams: { servers: [{ name: 'orders' }] } });
    for (const id of IDS.slice(1))
      expect((await s.call('GET', `/v1/documents/${encodeURIComponent(id)}`, { key: s.key('owner') })).status).toBe(404);
    expect(result.tools).toContainEqual({ name: 'recorder_read', action: 'recorder.read', kind: 'read', server: 'recorder', tool: 'read' });
    expect(result.tools).toContainEqual({
      name: 'recorder_refund',
      action: 'recorder.refund',
      kind: 'write',
      server: 'recorder',
      tool: 'refund',
    });
    expect(result.tools).toContainEqual({
      name: 'everything_get-sum',
      action: 'everything.get-sum',
      kind: 'read',
      server: 'everything',
      tool: 'get-sum',
    });
    // Tollgate's own server: its name stays, its actions leave the reserved tollgate. namespace; it passes on
    // its upstream's annotations (the recorder's read is read-only).
    expect(result.tools).toContainEqual({
      name: 'tollgate_read_order',
      action: 'tollgate-upstream.read_order',
      kind: 'read',
      server: 'tollgate',
      tool: 'read_order',
    });
  });

  it('reports each server it could not import with a code and its place, and drafts the others', () => {
    const lines = imported.stderr.split('\n');
    const at = (code: string) => lines.find((l) => l.includes(`: ${code}: `));
    expect(at('UPSTREAM_UNAVAILABLE')).toMatch(
      /^.*claude_desktop_config\.json:\d+:\d+: UPSTREAM_UNAVAILABLE: upstream broken could not be reached/,
    );
    expect(at('UNSUPPORTED_TRANSPORT')).toMatch(/claude_desktop_config\.json:\d+:\d+: UNSUPPORTED_TRANSPORT: .*not sse.*\(warning\)$/);
    expect(at('SERVER_RENAMED')).toContain('Everything is imported as everything');
    expect(at('UNSUPPORTED_MEMBER')).toContain('cwd');
    expect(result.servers).toContainEqual({ key: 'broken', name: 'broken', listed: false, code: 'UPSTREAM_UNAVAILABLE' });
    expect(result.servers.map((x: { name: string }) => x.name)).not.toContain('legacy');
    expect(new Set(result.tools.map((t: { server: string }) => t.server))).toEqual(new Set(['recorder', 'everything', 'tollgate']));
  });

  it('writes no secret into the data folder and names the variables the gateway needs instead', async () => {
    const files = readdirSync(s.dataDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    expect(files.length).toBeGreaterThan(5);
    for (const f of files) {
      const bytes = readFileSync(join(f.parentPath, f.name));
      expect(bytes.includes(ENV_SECRET), f.name).toBe(false);
      expect(bytes.includes(headerSecret), f.name).toBe(false);
    }
    expect(imported.stdout + imported.stderr).not.toContain(ENV_SECRET);
    expect(imported.stdout + imported.stderr).not.toContain(headerSecret);
    const upstreams = readUpstreams(await versionText('mcp/servers.yaml', sequenceOf('mcp/servers.yaml')));
    if (!upstreams.ok) throw new Error(JSON.stringify(upstreams.problems));
    expect(upstreams.upstreams.servers.map((x) => x.name)).toEqual(['orders', 'recorder', 'everything', 'tollgate']);
    expect(upstreams.upstreams.servers[1]).toMatchObject({ transport: 'stdio', env: ['RECORD_FILE', 'ORDERS_TOKEN'] });
    expect(upstreams.upstreams.servers[3]).toEqual({
      name: 'tollgate',
      transport: 'http',
      url: `${s.url}/mcp`,
      headers: { Authorization: 'TOLLGATE_AUTHORIZATION' },
    });
    expect(result.variables).toEqual([
      { name: 'RECORD_FILE', server: 'recorder', from: 'env' },
      { name: 'ORDERS_TOKEN', server: 'recorder', from: 'env' },
      { name: 'TOLLGATE_AUTHORIZATION', server: 'tollgate', from: 'header Authorization' },
    ]);
  });

  it('drafts documents the project’s own readers and `tollgate policy validate` accept', async () => {
    const text = Object.fromEntries(await Promise.all(IDS.map(async (id) => [id, await versionText(id, sequenceOf(id))])));
    const servers = readUpstreams(text['mcp/servers.yaml']);
    expect(servers.problems).toEqual([]);
    const names = new Set(servers.ok ? servers.upstreams.servers.map((x) => x.name) : []);
    const catalogue = readCatalogue(text['catalogues/mcp-agent.yaml'], catalogueFormatOf('catalogues/mcp-agent.yaml') ?? 'yaml', {
      upstreams: names,
    });
    expect(catalogue.problems).toEqual([]);
    expect(catalogue.ok && catalogue.catalogue.tools.length).toBe(result.tools.length);
    const known = new Set(IDS);
    for (const id of IDS) expect(validateDocument(id, text[id], { exists: (ref) => known.has(ref) }).problems, id).toEqual([]);
    const policy = dir.file('drafted.policy.json', text['policies/mcp-agent.policy.json']);
    const validated = await tollgate('policy', 'validate', policy);
    expect(validated.code, validated.stdout).toBe(0);
    expect(validated.stdout).toContain('drafted.policy.json: valid');
  });

  it('allows the tools annotated read-only and holds every other tool for an approver', async () => {
    const compiled = compilePolicy(
      JSON.parse(await versionText('policies/mcp-agent.policy.json', sequenceOf('policies/mcp-agent.policy.json'))),
    );
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.errors));
    const outcomes = result.tools.map((t: { name: string; action: string; kind: string }) => ({
      kind: t.kind,
      outcome: compiled.policy.decide(compileTool({ name: t.name, action: t.action }), {}),
    }));
    expect(outcomes.filter((o: { kind: string }) => o.kind === 'read').length).toBeGreaterThan(5);
    expect(outcomes.filter((o: { kind: string }) => o.kind === 'write').length).toBeGreaterThan(3);
    for (const { kind, outcome } of outcomes) {
      expect(outcome.decision).toBe(kind === 'read' ? 'allow' : 'require_approval');
      expect(outcome.rule).toBe(kind === 'read' ? 'read-only-tools' : 'other-tools-need-approval');
    }
    // Anything else the agent might name is denied.
    expect(compiled.policy.decide(compileTool({ name: 'other', action: 'recorder.other' }), {}).decision).toBe('deny');
  });

  it('runs nothing for the agent until an owner activates the drafts and authorizes its tools', async () => {
    const key = await s.ctx.state.createKey({ agent: 'mcp-agent' });
    const call = (tool: string) => s.call('POST', '/v1/agents/mcp-agent/calls', { key, body: { tool, arguments: {} } });
    const before = await call('recorder_read');
    // The agent's document is stored but does not run: to the gate there is no such agent yet.
    expect(before.status).toBe(404);
    expect(before.json.error).toMatchObject({ code: 'NOT_FOUND', details: { resource: 'agent' } });
    for (const id of IDS) {
      await okJson(
        s.call('POST', `/v1/documents/${encodeURIComponent(id)}/activate`, { key: s.key('owner'), body: { sequence: sequenceOf(id) } }),
      );
    }
    const tools = `/v1/catalogues/${encodeURIComponent('catalogues/mcp-agent.yaml')}/tools`;
    const listed = await okJson(s.call('GET', tools, { key: s.key('owner') }));
    for (const name of ['recorder_read', 'recorder_refund']) {
      const tool = listed.tools.find((t: { name: string }) => t.name === name);
      // The import saw each upstream definition, so the owner reviews and pins it without a refresh first.
      expect(tool.upstream).toMatchObject({ server: 'recorder', state: 'changed', pinned: null });
      const body = { digest: tool.digest, upstream_digest: tool.upstream.seen.digest };
      const pinned = await okJson(s.call('POST', `${tools}/${name}/authorize`, { key: s.key('owner'), body }));
      expect(pinned.upstream.state).toBe('authorized');
    }
    expect(await okJson(call('recorder_read'))).toMatchObject({ decision: 'allow', rule: 'read-only-tools' });
    expect(await okJson(call('recorder_refund'))).toMatchObject({ decision: 'require_approval', rule: 'other-tools-need-approval' });
  });
});

describe('a second import', () => {
  it('takes a running server for itself, drafts no new upstreams, and says plainly that nothing runs yet', async () => {
    const again = dir.file('again.json', {
      mcpServers: {
        recorder: { command: process.execPath, args: [RECORDER], env: { RECORD_FILE: 'elsewhere', ORDERS_TOKEN: ENV_SECRET } },
      },
    });
    const r = await tollgate('mcp', 'import', again, '--data', s.dataDir, '--agent', 'second');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('NOTHING RUNS YET. Saved as versions that do not run:');
    expect(r.stdout).toContain('POST /v1/documents/agents%2Fsecond.agent.yaml/activate {"sequence": 1}');
    expect(r.stdout).not.toContain('mcp/servers.yaml version');
    expect(r.stdout).toMatch(/ORDERS_TOKEN {2}\(recorder, env\)/);
    expect(r.stdout + r.stderr).not.toContain(ENV_SECRET);
    expect(r.stdout).toContain(`tollgate keys create --data ${s.dataDir} --agent second`);
  });
});

describe('tollgate mcp import refusals', () => {
  it('refuses a member named twice with its place, exit 1, and saves nothing', async () => {
    const twice = dir.file('twice.json', '{"mcpServers": {\n  "a": {"command": "node"},\n  "a": {"command": "npx"}\n}}\n');
    const r = await tollgate('mcp', 'import', twice, '--data', s.dataDir, '--agent', 'twice');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/twice\.json:3:3: DUPLICATE_MEMBER: member "a" appears more than once/);
    expect((await s.call('GET', '/v1/documents/agents%2Ftwice.agent.yaml/history', { key: s.key('owner') })).status).toBe(404);
  });

  it('never writes over a document that has versions', async () => {
    const r = await tollgate('mcp', 'import', client, '--data', s.dataDir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('DOCUMENT_EXISTS: catalogues/mcp-agent.yaml has versions already');
  });
});
