// MCP sessions over Streamable HTTP at /mcp (docs/mcp.md, "Sessions"): a session's per-session rules span its
// requests, it belongs to the key that opened it, DELETE ends it; and confirmations by MCP elicitation, or by a
// confirmed re-send, with the recording upstream (fixtures/recording-upstream.mjs) showing what reached it.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/server/app.ts';
import { cancelWhileHeld, errorOf, mapUpstreams, recordedCalls, recordingUpstream } from './mcp-fixture.ts';
import { agentKey, decisionRows, type LooseJson, okJson, postEdit, startServer, type TestServer } from './server-harness.ts';

let s: TestServer;
let record: string;
const clients: Client[] = [];

const recorded = () => recordedCalls(record);

const SHEET = `rules:
  - action: issue_refund
    at_most: 2
  - action: read_order
    confirmation: "Read this customer's order?"
  - action: export_customers
    never: true
`;

/** A client of /mcp as support-bot (or with `key`); `elicit` answers the gateway's questions, and declares the capability. */
async function connect(options: { key?: string; elicit?: (message: string) => ElicitResult } = {}) {
  const client = new Client({ name: 'test-agent', version: '1' }, { capabilities: options.elicit ? { elicitation: {} } : {} });
  const asked: string[] = [];
  if (options.elicit) {
    const elicit = options.elicit;
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return elicit(request.params.message);
    });
  }
  const transport = new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${options.key ?? agentKey(s, 'support-bot')}` } },
  });
  await client.connect(transport);
  clients.push(client);
  return { client, transport, asked };
}

/** A raw JSON-RPC POST to /mcp with `key` and, when given, a session id. */
function post(key: string, body: unknown, sessionId?: string): Promise<Response> {
  return fetch(`${s.url}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(sessionId ? { 'mcp-session-id': sessionId } : {}),
    },
    body: JSON.stringify(body),
  });
}

/** A response's JSON body, read loosely: each assertion says what it expects. */
const jsonOf = (res: Response): Promise<LooseJson> => res.json();

const LIST = { jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} };

/** The gate sessions of the recorded MCP decisions of a tool, oldest first. */
async function decisionsOf(tool: string): Promise<{ session: string | null; decision: string }[]> {
  return (await decisionRows(s)).filter((d) => d.via === 'mcp' && d.tool === tool);
}

beforeAll(async () => {
  s = await startServer();
  const recorder = recordingUpstream(s, 'recorded-sessions.jsonl');
  record = recorder.record;
  await mapUpstreams(s, [recorder.upstream], {
    issue_refund: { server: 'recorder', tool: 'refund' },
    read_order: { server: 'recorder', tool: 'read' },
  });
  await okJson(postEdit(s, 'sheets/support.rules.yaml', s.key('owner'), { content: SHEET, reason: 'sessions test' }), 201);
}, 30_000);

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

afterAll(async () => {
  s?.ctx.events.close();
  await s?.stop();
  delete process.env.RECORD_FILE;
});

describe('sessions at /mcp', () => {
  it("counts a session's calls over its requests (at_most 2), and a new session afresh", async () => {
    const { client, transport } = await connect();
    const refund = () => client.callTool({ name: 'issue_refund', arguments: { amount: '50', order: 'S-1' } });
    expect((await refund()).isError).toBeFalsy();
    expect((await refund()).isError).toBeFalsy();
    const before = recorded().length;
    expect(errorOf(await refund()).code).toBe('AT_MOST_EXCEEDED');
    expect(recorded().length).toBe(before);
    // Each call was its own HTTP request; the gate session is the MCP session.
    expect((await decisionsOf('issue_refund')).map((d) => d.session)).toEqual(Array(3).fill(`mcp-${transport.sessionId}`));
    const other = await connect();
    expect(other.transport.sessionId).not.toBe(transport.sessionId);
    expect((await other.client.callTool({ name: 'issue_refund', arguments: { amount: '50', order: 'S-2' } })).isError).toBeFalsy();
  }, 30_000);

  it('answers another key, or another agent’s, for a session as for an unknown session; its own key goes on', async () => {
    const { client, transport } = await connect();
    const id = transport.sessionId as string;
    for (const key of [await s.ctx.state.createKey({ agent: 'support-bot' }), agentKey(s, 'refunds-bot')]) {
      const res = await post(key, LIST, id);
      expect(res.status).toBe(404);
      expect((await jsonOf(res)).error).toMatchObject({ code: -32001, message: expect.stringMatching(/^SESSION_NOT_FOUND: /) });
    }
    const unknown = await post(agentKey(s, 'support-bot'), LIST, '4f0c7f55-6a4e-4c0e-9d0b-2f1f0f0f0f0f');
    expect(unknown.status).toBe(404);
    await unknown.body?.cancel();
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['issue_refund', 'read_order']);
  }, 20_000);

  it('refuses a request with no session that is not an initialize', async () => {
    const res = await post(agentKey(s, 'support-bot'), LIST);
    expect(res.status).toBe(400);
    expect((await jsonOf(res)).error.message).toMatch(/^SESSION_REQUIRED: /);
  });

  it('ends a session on DELETE: its id is unknown afterwards', async () => {
    const { transport } = await connect();
    const id = transport.sessionId as string;
    expect((await post(agentKey(s, 'support-bot'), LIST, id)).status).toBe(200);
    await transport.terminateSession();
    const res = await post(agentKey(s, 'support-bot'), LIST, id);
    expect(res.status).toBe(404);
    await res.body?.cancel();
  }, 20_000);

  it('refuses an initialize past the session cap with 503, and forgets an idle session', async () => {
    // Idle after 1 s: long enough that the first session is still open when the second initialize comes, even on
    // a loaded machine.
    const app = createApp({ ctx: s.ctx, mcp: { maxSessions: 1, sessionIdleMs: 1_000 } });
    const initialize = () =>
      app.request('/mcp', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${agentKey(s, 'support-bot')}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
        }),
      });
    const first = await initialize();
    expect(first.status).toBe(200);
    await first.text();
    const id = first.headers.get('mcp-session-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const over = await initialize();
    expect(over.status).toBe(503);
    expect((await jsonOf(over)).error.message).toMatch(/^SESSION_LIMIT: 1 sessions are open/);
    await new Promise((r) => setTimeout(r, 1_200));
    const stale = await app.request('/mcp', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${agentKey(s, 'support-bot')}`,
        'content-type': 'application/json',
        'mcp-session-id': id as string,
      },
      body: JSON.stringify(LIST),
    });
    expect(stale.status).toBe(404);
    const again = await initialize();
    expect(again.status).toBe(200);
    await again.text();
  }, 20_000);
});

describe('one read per message at /mcp', () => {
  it('decides on numbers as written and forwards the plain copy of what it decided on', async () => {
    const { transport } = await connect();
    const before = recorded().length;
    // Written by hand: the SDK's client would send 1.5. A number kept as written is no parse error.
    const res = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${agentKey(s, 'support-bot')}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': transport.sessionId as string,
      },
      body: '{"jsonrpc":"2.0","id":1.0,"method":"tools/call","params":{"name":"read_order","arguments":{"id":"o-5","qty":1.50},"_meta":{"tollgate/confirmed":true}}}',
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('done read');
    expect(recorded().slice(before)).toEqual([{ tool: 'read', arguments: { id: 'o-5', qty: 1.5 } }]);
    const row = (await decisionRows(s)).filter((d) => d.via === 'mcp').at(-1) as { arguments: string };
    expect(row.arguments).toBe('{"id":"o-5","qty":1.50}');
  }, 20_000);
});

describe('confirmations over MCP', () => {
  it('asks a client that can elicit; an accepted confirm is decided again and forwarded once', async () => {
    const { client, asked } = await connect({ elicit: () => ({ action: 'accept', content: { confirm: true } }) });
    const before = recorded().length;
    const result = await client.callTool({ name: 'read_order', arguments: { id: 'o-1' } });
    expect(result.isError).toBeFalsy();
    expect(asked).toEqual(["Read this customer's order?"]);
    expect(recorded().slice(before)).toEqual([{ tool: 'read', arguments: { id: 'o-1' } }]);
    // Both decisions are logged: the confirmation asked for, then the confirmed call.
    expect((await decisionsOf('read_order')).slice(-2).map((d) => d.decision)).toEqual(['confirm', 'allow']);
  }, 20_000);

  it.each<[string, ElicitResult]>([
    ['declined', { action: 'decline' }],
    ['cancelled', { action: 'cancel' }],
    ['accepted unconfirmed', { action: 'accept', content: { confirm: false } }],
  ])(
    'answers %s with CONFIRMATION_DECLINED; the upstream is never called',
    async (_, answer) => {
      const { client, asked } = await connect({ elicit: () => answer });
      const before = recorded().length;
      const error = errorOf(await client.callTool({ name: 'read_order', arguments: { id: 'o-2' } }));
      expect(error.code).toBe('CONFIRMATION_DECLINED');
      expect(error.details.explanation.confirmation).toBe("Read this customer's order?");
      expect(asked).toHaveLength(1);
      expect(recorded().length).toBe(before);
    },
    20_000,
  );

  it('without elicitation: CONFIRMATION_REQUIRED, then a re-send marked confirmed proceeds', async () => {
    const { client } = await connect();
    const before = recorded().length;
    const error = errorOf(await client.callTool({ name: 'read_order', arguments: { id: 'o-3' } }));
    expect(error.code).toBe('CONFIRMATION_REQUIRED');
    expect(error.message).toContain('"tollgate/confirmed": true');
    expect(recorded().length).toBe(before);
    const confirmed = await client.callTool({ name: 'read_order', arguments: { id: 'o-3' }, _meta: { 'tollgate/confirmed': true } });
    expect(confirmed.isError).toBeFalsy();
    expect(recorded().slice(before)).toEqual([{ tool: 'read', arguments: { id: 'o-3' } }]);
    // A call sent confirmed is still decided: the policy denies a refund of 5000 whatever the client says.
    expect(
      errorOf(await client.callTool({ name: 'issue_refund', arguments: { amount: '5000' }, _meta: { 'tollgate/confirmed': true } })).code,
    ).toBe('DENIED');
  }, 20_000);
});

describe('a held call the client cancels', () => {
  it('never reaches the upstream, and its approval request stays pending', async () => {
    const { client } = await connect();
    const before = recorded().length;
    // The gateway stops waiting (CALL_CANCELLED, which the SDK does not send for a cancelled request); a person
    // approving afterwards sends nothing either: no gateway waits to claim it.
    const approvalId = await cancelWhileHeld(s, client, { amount: '500', order: 'S-9' });
    const approval = await okJson(s.call('GET', `/v1/approvals/${approvalId}`, { key: s.key('approver') }));
    expect(approval.status).toBe('pending');
    await okJson(s.call('POST', `/v1/approvals/${approvalId}/approve`, { key: s.key('approver'), body: {} }));
    await new Promise((r) => setTimeout(r, 600));
    expect(recorded().length).toBe(before);
  }, 30_000);
});

describe('a stopping server', () => {
  // Last: it closes the server's event hub, as `tollgate serve` does when it stops.
  it('ends its sessions and opens no new one', async () => {
    const { transport } = await connect();
    const id = transport.sessionId as string;
    s.ctx.events.close();
    const ended = await post(agentKey(s, 'support-bot'), LIST, id);
    expect(ended.status).toBe(404);
    await ended.body?.cancel();
    const initialize = await post(agentKey(s, 'support-bot'), {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'late', version: '1' } },
    });
    expect(initialize.status).toBe(503);
    expect((await jsonOf(initialize)).error.message).toMatch(/^SERVER_STOPPING: /);
  }, 20_000);
});
