// The MCP gateway over Streamable HTTP at /mcp, in-process on loopback: the SDK's own Client with the
// agent's key as a Bearer token, a recording upstream (fixtures/recording-upstream.mjs) behind it.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectHttp,
  EVERYTHING,
  errorOf,
  mapUpstreams,
  nodeUpstream,
  pendingApprovalId,
  recordedCalls,
  recordingUpstream,
  textOf,
} from './mcp-fixture.ts';
import { okJson, startServer, type TestServer } from './server-harness.ts';

let s: TestServer;
let record: string;
let client: Client;

const recorded = () => recordedCalls(record);

beforeAll(async () => {
  s = await startServer();
  const recorder = recordingUpstream(s, 'recorded-http.jsonl');
  record = recorder.record;
  // In the gateway's environment before any upstream starts, and named by no upstream: none may see it.
  process.env.NOT_FOR_UPSTREAMS = 'secret-value-42';
  await mapUpstreams(s, [recorder.upstream, nodeUpstream('everything', EVERYTHING, ['stdio'])], {
    issue_refund: { server: 'recorder', tool: 'refund' },
    read_order: { server: 'everything', tool: 'echo' },
    search_orders: { server: 'everything', tool: 'get-env' },
  });
  client = await connectHttp(s, 'test-agent');
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

  it('refuses a body over 1 MiB unread, with or without a length, before the key is looked at', async () => {
    const big = `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${'x'.repeat(1024 * 1024)}"}}`;
    // No key at all: the body's size is judged first, as on every API route, so a 401 would mean it was read on.
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const withLength = await fetch(`${s.url}/mcp`, { method: 'POST', headers, body: big });
    expect(withLength.status).toBe(413);
    expect(((await withLength.json()) as { error: { message: string } }).error.message).toMatch(/^TOO_LARGE/);
    const bytes = new TextEncoder().encode(big);
    const streamed = new ReadableStream({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 65536) controller.enqueue(bytes.slice(i, i + 65536));
        controller.close();
      },
    });
    const chunked = await fetch(`${s.url}/mcp`, { method: 'POST', headers, body: streamed, duplex: 'half' } as RequestInit);
    expect(chunked.status).toBe(413);
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
    const approvalId = await pendingApprovalId(s);
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
    const text = textOf(env);
    expect(text).toContain('PATH');
    expect(text).not.toContain('secret-value-42');
  }, 30_000);
});
