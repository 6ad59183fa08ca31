// The MCP gateway over Streamable HTTP at /mcp, in-process on loopback: the SDK's own Client with the
// agent's key as a Bearer token, a recording upstream (fixtures/recording-upstream.mjs) behind it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentKey, okJson, postEdit, REPO_ROOT, startServer, type TestServer } from './server-harness.ts';

const RECORDER = join(REPO_ROOT, 'apps/api/test/fixtures/recording-upstream.mjs');
// An upstream no one here wrote: the MCP maintainers' reference server, a pinned dev dependency.
const EVERYTHING = join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

let s: TestServer;
let record: string;
let client: Client;

type Text = { type: string; text: string };

function recorded(): unknown[] {
  if (!existsSync(record)) return [];
  return readFileSync(record, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
}

function errorOf(result: Record<string, unknown>) {
  expect(result.isError).toBe(true);
  return JSON.parse(((result.content as Text[])[0] as Text).text).error;
}

beforeAll(async () => {
  s = await startServer();
  record = join(s.dataDir, 'recorded-http.jsonl');
  const upstreams = `servers:\n  - name: recorder\n    stdio:\n      command: ${JSON.stringify(process.execPath)}\n      args: [${JSON.stringify(RECORDER)}]\n      env: [RECORD_FILE]\n  - name: everything\n    stdio:\n      command: ${JSON.stringify(process.execPath)}\n      args: [${JSON.stringify(EVERYTHING)}, stdio]\n`;
  // The recorder reads RECORD_FILE; the gateway passes on the variable the document names, from its own environment.
  process.env.RECORD_FILE = record;
  // In the gateway's environment before any upstream starts, and named by no upstream: none may see it.
  process.env.NOT_FOR_UPSTREAMS = 'secret-value-42';
  await okJson(postEdit(s, 'mcp/servers.yaml', s.key('owner'), { content: upstreams, reason: 'the recorder' }), 201);
  const catalogue = (await s.call('GET', '/v1/documents/catalogue.yaml', { key: s.key('owner') })).json.text as string;
  const mapped = catalogue
    .replace(
      'amount: { pointer: /amount, currency: USD } }\n  - { name: send_payout',
      'amount: { pointer: /amount, currency: USD }, upstream: { server: recorder, tool: refund } }\n  - { name: send_payout',
    )
    .replace(
      '{ name: read_order, action: orders.read, kind: read }',
      '{ name: read_order, action: orders.read, kind: read, upstream: { server: everything, tool: echo } }',
    )
    .replace(
      '{ name: search_orders, action: orders.search, kind: read }',
      '{ name: search_orders, action: orders.search, kind: read, upstream: { server: everything, tool: get-env } }',
    );
  await okJson(postEdit(s, 'catalogue.yaml', s.key('owner'), { content: mapped, reason: 'map to the recorder' }), 201);
  client = new Client({ name: 'test-agent', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${agentKey(s, 'support-bot')}` } },
    }),
  );
}, 30_000);

afterAll(async () => {
  await client?.close();
  s?.ctx.events.close();
  await s?.stop();
  delete process.env.RECORD_FILE;
  delete process.env.NOT_FOR_UPSTREAMS;
});

describe('/mcp over Streamable HTTP', () => {
  it('refuses a request without an agent key', async () => {
    const res = await fetch(`${s.url}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${s.key('owner')}` }, body: '{}' });
    expect(res.status).toBe(401);
  });

  it('lists the mapped tool, forwards an allowed call and refuses a denied one without calling the upstream', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['issue_refund', 'read_order', 'search_orders']);
    const result = await client.callTool({ name: 'issue_refund', arguments: { amount: '50', order: 'H-1' } });
    expect(result.content).toEqual([{ type: 'text', text: 'done refund {"amount":"50","order":"H-1"}' }]);
    const before = recorded().length;
    expect(errorOf(await client.callTool({ name: 'issue_refund', arguments: { amount: '5000' } })).code).toBe('DENIED');
    expect(recorded().length).toBe(before);
  }, 20_000);

  it('holds a call until it is approved, then forwards it exactly once', async () => {
    const before = recorded().length;
    const pending = client.callTool({ name: 'issue_refund', arguments: { amount: '500', order: 'H-2' } }, undefined, { timeout: 30_000 });
    let approvalId: string | undefined;
    for (let i = 0; i < 100 && approvalId === undefined; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const list = await s.call('GET', '/v1/approvals?status=pending', { key: s.key('approver') });
      approvalId = list.json.approvals?.[0]?.id;
    }
    expect(recorded().length).toBe(before);
    await okJson(s.call('POST', `/v1/approvals/${approvalId}/approve`, { key: s.key('approver'), body: {} }));
    const result = await pending;
    expect(result.isError).toBeFalsy();
    expect(recorded().slice(before)).toEqual([{ tool: 'refund', arguments: { amount: '500', order: 'H-2' } }]);
  }, 40_000);

  it('forwards to @modelcontextprotocol/server-everything, which sees only the variables the document names', async () => {
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === 'read_order')).toMatchObject({
      description: 'Echoes back the input string',
      inputSchema: { type: 'object', required: ['message'] },
    });
    const echo = await client.callTool({ name: 'read_order', arguments: { message: 'hello' } });
    expect(echo.content).toEqual([{ type: 'text', text: 'Echo: hello' }]);
    const env = await client.callTool({ name: 'search_orders', arguments: {} });
    const text = ((env.content as Text[])[0] as Text).text;
    expect(text).toContain('PATH');
    expect(text).not.toContain('secret-value-42');
  }, 30_000);
});
