// POST /v1/mcp/import with real parts: a configuration naming variables of the server's environment (never values)
// starts the recording upstream over stdio, lists its tools and saves the drafts as versions that do not run; the
// secret the variable holds is in no table and no file; each refusal answers its code with the place at fault.
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mapUpstreams, nodeUpstream, RECORDER } from './mcp-fixture.ts';
import { everyRowText, type LooseJson, okJson, startServer, type TestServer } from './server-harness.ts';

const SECRET = `import-secret-${randomUUID()}`;
const TOKEN = `TOLLGATE_TEST_IMPORT_TOKEN_${randomUUID().slice(0, 8).toUpperCase()}`.replace('TOLLGATE_', 'IMPORT_');
const RECORD = `IMPORT_RECORD_${randomUUID().slice(0, 8).toUpperCase()}`;

let s: TestServer;

/** The client configuration as the console sends it: each env value is the name of the server's variable. */
function config(servers: Record<string, unknown>): string {
  return JSON.stringify({ mcpServers: servers }, null, 2);
}

const recorder = (env: Record<string, string> = { [TOKEN]: TOKEN }) => ({ command: process.execPath, args: [RECORDER], env });

function importing(body: unknown, key = s.key('owner')) {
  return s.call('POST', '/v1/mcp/import', { key, body });
}

/** Every file under a folder, as text. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else out.push(`${path}: ${readFileSync(path).toString('utf8')}`);
  }
  return out;
}

beforeAll(async () => {
  process.env[TOKEN] = SECRET;
  process.env[RECORD] = join(process.cwd(), 'unused.jsonl');
  s = await startServer();
});

afterAll(async () => {
  delete process.env[TOKEN];
  delete process.env[RECORD];
  await s?.stop();
});

describe('POST /v1/mcp/import', () => {
  let result: LooseJson;

  beforeAll(async () => {
    result = await okJson(
      importing({
        config: config({ Recorder: recorder(), legacy: { type: 'sse', url: 'http://127.0.0.1:9/sse' } }),
        agent: 'first-agent',
        upstream_timeout_seconds: 20,
      }),
      201,
    );
  }, 30_000);

  it('lists the tools with the server’s variable and saves every draft as a version that does not run', async () => {
    const ids = [
      'mcp/servers.yaml',
      'catalogues/first-agent.yaml',
      'policies/first-agent.policy.json',
      'policies/first-agent.examples.json',
      'agents/first-agent.agent.yaml',
    ];
    expect(result.running).toBe(false);
    expect(result.documents.map((d: { id: string }) => d.id)).toEqual(ids);
    expect(result.servers).toEqual([{ key: 'Recorder', name: 'recorder', listed: true, tools: 3 }]);
    expect(result.tools.map((t: { name: string; kind: string }) => `${t.name}:${t.kind}`)).toEqual([
      'recorder_refund:write',
      'recorder_read:read',
      'recorder_unlisted:write',
    ]);
    expect(result.variables).toEqual([{ name: TOKEN, server: 'recorder', from: 'env' }]);
    expect(result.problems).toMatchObject([
      { code: 'SERVER_RENAMED', path: '/mcpServers/Recorder', line: 3 },
      { code: 'UNSUPPORTED_TRANSPORT', path: '/mcpServers/legacy/type', line: 13 },
    ]);
    for (const { id, sequence } of result.documents) {
      const history = await okJson(s.call('GET', `/v1/documents/${encodeURIComponent(id)}/history`, { key: s.key('owner') }));
      const version = history.versions.find((v: { sequence: number }) => v.sequence === sequence);
      expect(version, id).toMatchObject({ running: false, author: { kind: 'person' } });
    }
    // The documents list says each draft is stored and not running, not that it was rejected.
    const listed = await okJson(s.call('GET', '/v1/documents', { key: s.key('viewer') }));
    const drafts = listed.documents.filter((d: { id: string }) => ids.slice(1).includes(d.id));
    expect(drafts.map((d: { status: string; running_sequence: null }) => [d.status, d.running_sequence])).toEqual(
      Array(4).fill(['not_running', null]),
    );
    // Until it is activated, the gate knows no such agent: its document has no running text.
    expect((await s.call('GET', '/v1/documents/agents%2Ffirst-agent.agent.yaml', { key: s.key('owner') })).status).toBe(404);
  });

  it('writes the variable’s name where the upstream needs it, and its value nowhere', async () => {
    const upstreams = result.documents.find((d: { id: string }) => d.id === 'mcp/servers.yaml');
    const text = (await okJson(s.call('GET', `/v1/documents/mcp%2Fservers.yaml/versions/${upstreams.sequence}`, { key: s.key('owner') })))
      .text;
    expect(text).toContain(`env: ["${TOKEN}"]`);
    const rows = await everyRowText(s);
    expect(rows.filter((row) => row.includes(SECRET))).toEqual([]);
    expect(filesUnder(s.dataDir).filter((file) => file.includes(SECRET))).toEqual([]);
  });

  it('drafts example calls that the drafted policy passes', async () => {
    const seq = (id: string) => result.documents.find((d: { id: string }) => d.id === id).sequence;
    const suite = (
      await okJson(
        s.call(
          'GET',
          `/v1/documents/${encodeURIComponent('policies/first-agent.examples.json')}/versions/${seq('policies/first-agent.examples.json')}`,
          {
            key: s.key('owner'),
          },
        ),
      )
    ).text;
    const run = await okJson(
      s.call('POST', '/v1/simulations', {
        key: s.key('owner'),
        body: {
          document: { id: 'policies/first-agent.policy.json', sequence: seq('policies/first-agent.policy.json') },
          calls: { examples: JSON.parse(suite) },
        },
      }),
    );
    expect(run.compared).toBe('expected');
    expect(run.counts).toEqual({ calls: 3, agreed: 3, differed: 0, not_evaluable: 0 });
  });

  it('refuses to draft over documents that have versions (DOCUMENT_EXISTS), saving nothing', async () => {
    const before = (await everyRowText(s)).length;
    const res = await importing({ config: config({ recorder: recorder() }), agent: 'first-agent' });
    expect(res.status).toBe(409);
    expect(res.json.error.code).toBe('DOCUMENT_EXISTS');
    expect(res.json.error.details.problems.map((p: { code: string }) => p.code)).toEqual(Array(4).fill('DOCUMENT_EXISTS'));
    expect((await everyRowText(s)).length).toBe(before);
  });
});

describe('two imports of one agent at once', () => {
  it('save one set of drafts and refuse the other (DOCUMENT_EXISTS)', async () => {
    const body = { config: config({ recorder: recorder() }), agent: 'at-once' };
    const answers = await Promise.all([importing(body), importing(body)]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    const history = await okJson(s.call('GET', '/v1/documents/agents%2Fat-once.agent.yaml/history', { key: s.key('owner') }));
    expect(history.versions).toHaveLength(1);
  }, 30_000);
});

describe('refusals', () => {
  it('answers a configuration that does not read with the reader’s code and its place', async () => {
    const notJson = await importing({ config: '{"mcpServers": {\n  "a": ' });
    expect(notJson.status).toBe(422);
    expect(notJson.json.error).toMatchObject({ code: 'INVALID_CLIENT_CONFIG', details: { problems: [{ code: 'NOT_JSON', line: 2 }] } });
    const twice = await importing({ config: '{"mcpServers": {}, "mcpServers": {}}' });
    expect(twice.json.error).toMatchObject({
      code: 'INVALID_CLIENT_CONFIG',
      details: { problems: [{ code: 'DUPLICATE_MEMBER', line: 1 }] },
    });
    const notConfig = await importing({ config: '{"servers": {}}' });
    expect(notConfig.json.error).toMatchObject({ code: 'INVALID_CLIENT_CONFIG', details: { problems: [{ code: 'NOT_CLIENT_CONFIG' }] } });
  });

  it('refuses a value where a variable’s name belongs, never repeating it', async () => {
    const pasted = `sk-live-${randomUUID()}`;
    const res = await importing({ config: config({ files: recorder({ TOKEN: pasted }) }) });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatchObject({
      code: 'INVALID_CLIENT_CONFIG',
      details: { problems: [{ code: 'VARIABLE_NAME_REQUIRED', path: '/mcpServers/files/env/TOKEN', line: 9 }] },
    });
    expect(res.text).not.toContain(pasted);
    const differs = await importing({ config: config({ files: recorder({ TOKEN: TOKEN }) }) });
    expect(differs.json.error.details.problems).toMatchObject([{ code: 'ENV_NAME_DIFFERS', path: '/mcpServers/files/env/TOKEN' }]);
    const reserved = await importing({
      config: config({ files: { url: 'https://x.example/mcp', headers: { A: 'TOLLGATE_MEMBER_KEY_SECRET' } } }),
    });
    expect(reserved.json.error.details.problems).toMatchObject([{ code: 'VARIABLE_RESERVED', path: '/mcpServers/files/headers/A' }]);
  });

  it('refuses a variable the server’s environment does not have, before starting anything', async () => {
    const missing = `IMPORT_MISSING_${randomUUID().slice(0, 8).toUpperCase()}`;
    const res = await importing({ config: config({ files: recorder({ [missing]: missing }) }), agent: 'missing-var' });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatchObject({
      code: 'VARIABLE_NOT_SET',
      details: { problems: [{ code: 'VARIABLE_NOT_SET', path: `/mcpServers/files/env/${missing}` }] },
    });
    expect((await s.call('GET', '/v1/documents/agents%2Fmissing-var.agent.yaml/history', { key: s.key('owner') })).status).toBe(404);
  });

  it('answers NOTHING_TO_IMPORT when no server lists a tool, saving nothing', async () => {
    const res = await importing({ config: config({ broken: { command: '/nonexistent/upstream' } }), agent: 'nothing' });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatchObject({
      code: 'NOTHING_TO_IMPORT',
      details: { problems: [{ code: 'UPSTREAM_UNAVAILABLE', path: '/mcpServers/broken' }] },
    });
    expect((await s.call('GET', '/v1/documents/agents%2Fnothing.agent.yaml/history', { key: s.key('owner') })).status).toBe(404);
  });

  it('is an owner’s or admin’s, never a developer’s or an agent’s', async () => {
    const body = { config: config({ recorder: recorder() }), agent: 'not-yours' };
    expect((await importing(body, s.key('developer'))).json.error.code).toBe('ROLE_REQUIRED');
    expect((await importing(body, s.key('viewer'))).status).toBe(403);
    expect((await importing(body, s.keys.agents[0]?.key)).status).toBe(403);
    // An owner's key held by a model never starts a command: a person imports.
    const owner = s.keys.members.find((m) => m.role === 'owner');
    const modelKey = await s.ctx.state.createKey({ member: owner?.id as string }, ['model']);
    expect((await importing(body, modelKey)).json.error.code).toBe('PERSON_REQUIRED');
    expect((await s.call('GET', '/v1/documents/agents%2Fnot-yours.agent.yaml/history', { key: s.key('owner') })).status).toBe(404);
  });
});

describe('a Streamable HTTP server whose header names a variable', () => {
  const AUTH = `IMPORT_AUTH_${randomUUID().slice(0, 8).toUpperCase()}`;
  let headerSecret: string;

  beforeAll(async () => {
    // Tollgate's own /mcp as the upstream: it offers support-bot's read_order once that maps to the recorder.
    await mapUpstreams(s, [nodeUpstream('orders', RECORDER)], { read_order: { server: 'orders', tool: 'read' } });
    headerSecret = await s.ctx.state.createKey({ agent: 'support-bot' });
    process.env[AUTH] = `Bearer ${headerSecret}`;
  }, 30_000);

  afterAll(() => {
    delete process.env[AUTH];
  });

  it('sends the header from the server’s variable and maps the header to that variable’s name', async () => {
    const result = await okJson(
      importing({
        config: config({ gateway: { type: 'http', url: `${s.url}/mcp`, headers: { Authorization: AUTH } } }),
        agent: 'over-http',
      }),
      201,
    );
    expect(result.servers).toEqual([{ key: 'gateway', name: 'gateway', listed: true, tools: 1 }]);
    expect(result.variables).toEqual([{ name: AUTH, server: 'gateway', from: 'header Authorization' }]);
    const upstreams = result.documents.find((d: { id: string }) => d.id === 'mcp/servers.yaml');
    const text = (await okJson(s.call('GET', `/v1/documents/mcp%2Fservers.yaml/versions/${upstreams.sequence}`, { key: s.key('owner') })))
      .text;
    expect(text).toContain(`headers: { "Authorization": "${AUTH}" }`);
    expect((await everyRowText(s)).filter((row) => row.includes(headerSecret))).toEqual([]);
    expect(filesUnder(s.dataDir).filter((file) => file.includes(headerSecret))).toEqual([]);
  });
});
