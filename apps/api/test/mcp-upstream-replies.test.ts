// What an upstream's answer becomes for the agent (docs/mcp.md, "What each decision looks like to the agent"),
// through the SDK's Client against `tollgate mcp` (a child process) and against /mcp on loopback, with an
// upstream that answers raw JSON-RPC as it is told (fixtures/scripted-upstream.mjs): an error it sends is
// UPSTREAM_FAILED with its own code and message, whatever the code (the SDK's own -32001 and -32000 too); only a
// reply that is not a valid result is UPSTREAM_MALFORMED.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttp, errorOf, mapUpstreams, nodeUpstream } from './mcp-fixture.ts';
import { agentKey, okJson, REPO_ROOT, startServer, type TestServer } from './server-harness.ts';

const BIN = join(REPO_ROOT, 'apps/api/bin/tollgate.cjs');
const SCRIPTED = join(REPO_ROOT, 'apps/api/test/fixtures/scripted-upstream.mjs');

let s: TestServer;
let state: string;
const clients: Record<string, Client> = {};
/** What the stdio gateway wrote on stderr: its log. */
let gatewayLog = '';

beforeAll(async () => {
  s = await startServer();
  state = join(s.dataDir, 'scripted.json');
  writeFileSync(state, '{}');
  await mapUpstreams(s, [nodeUpstream('scripted', SCRIPTED, [state])], {
    read_order: { server: 'scripted', tool: 'reply' },
    search_orders: { server: 'scripted', tool: 'shaped' },
  });
  const stdio = new SdkClient({ name: 'test-agent', version: '1' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', '--agent', 'support-bot', '--data', s.dataDir, '--upstream-timeout', '2'],
    env: { PATH: process.env.PATH ?? '', TOLLGATE_AGENT_KEY: agentKey(s, 'support-bot') },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => {
    gatewayLog += chunk.toString('utf8');
  });
  await stdio.connect(transport);
  clients.stdio = stdio;
  clients.http = await connectHttp(s);
  for (const client of Object.values(clients)) await client.listTools();
}, 60_000);

afterAll(async () => {
  for (const client of Object.values(clients)) await client.close();
  await s?.stop();
});

const reply = (client: Client, args: Record<string, unknown>, name = 'read_order') =>
  client.callTool({ name, arguments: args }, undefined, { timeout: 20_000 });

describe.each(['stdio', 'http'])('an upstream’s answer, over %s', (via) => {
  const client = () => clients[via] as Client;

  it('passes a valid result through as the upstream gave it', async () => {
    const result = await reply(client(), {});
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'answered' }] });
    expect(result.isError).toBeFalsy();
  });

  it('answers an upstream’s JSON-RPC error as UPSTREAM_FAILED with its code and message', async () => {
    const invalid = errorOf(await reply(client(), { error: { code: -32602, message: 'amount must be a string' } }));
    expect(invalid.code).toBe('UPSTREAM_FAILED');
    expect(invalid.details.upstream_error).toEqual({ code: -32602, message: 'amount must be a string' });
    expect(invalid.message).toContain('-32602');
    expect(invalid.message).toContain('amount must be a string');
    const key = errorOf(
      await reply(client(), { error: { code: -32603, message: 'Invalid API key for the ledger', data: { retry: false } } }),
    );
    expect(key.code).toBe('UPSTREAM_FAILED');
    expect(key.details.upstream_error).toEqual({ code: -32603, message: 'Invalid API key for the ledger', data: { retry: false } });
    expect(key.details.call_id).toEqual(expect.any(String));
  });

  it('answers errors whose codes the SDK uses for its own faults (-32001, -32000) as the upstream’s too', async () => {
    for (const code of [-32001, -32000, -32700, 1, 0]) {
      const error = errorOf(await reply(client(), { error: { code, message: `upstream said ${code}` } }));
      expect(error.code, `code ${code}`).toBe('UPSTREAM_FAILED');
      expect(error.details.upstream_error).toEqual({ code, message: `upstream said ${code}` });
    }
  });

  it('answers a reply that is not a valid tool result as UPSTREAM_MALFORMED', async () => {
    // (A reply whose result is not even an object is no JSON-RPC message: the SDK drops it, and the call ends
    // when its bound does; docs/mcp.md.)
    for (const result of [
      { content: 'not a list' },
      { content: [{ type: 'no-such-type' }] },
      { content: [{ type: 'text' }] },
      { isError: 'yes' },
    ]) {
      const error = errorOf(await reply(client(), { result }));
      expect(error.code, JSON.stringify(result)).toBe('UPSTREAM_MALFORMED');
      expect(error.details.upstream_error).toBeUndefined();
    }
    // Structured content that does not match the tool's declared output schema, or none at all.
    for (const result of [{ content: [], structuredContent: { n: 'one' } }, { content: [{ type: 'text', text: 'no structure' }] }]) {
      const error = errorOf(await reply(client(), { result }, 'search_orders'));
      expect(error.code, JSON.stringify(result)).toBe('UPSTREAM_MALFORMED');
    }
    expect((await reply(client(), { result: { content: [], structuredContent: { n: 1 } } }, 'search_orders')).isError).toBeFalsy();
  });

  it('answers an upstream that does not answer within the bound as UPSTREAM_TIMEOUT', async () => {
    // stdio's --upstream-timeout is 2 s; /mcp's is 30 s, so a late answer is only late over stdio.
    if (via !== 'stdio') return;
    expect(errorOf(await reply(client(), { delay_ms: 4000 })).code).toBe('UPSTREAM_TIMEOUT');
  }, 20_000);
});

describe('the gateway’s log of an upstream’s failure', () => {
  it('names the call and the codes, never the upstream’s words, which may echo the arguments', async () => {
    const secret = 'card 4111-1111-1111-1111 refused';
    const answered = errorOf(await reply(clients.stdio as Client, { error: { code: -32603, message: secret } }));
    expect(answered.message).toContain(secret); // the agent is told what its upstream said
    await expect.poll(() => gatewayLog, { timeout: 5_000 }).toContain(`${answered.details.call_id}`);
    const line = gatewayLog.split('\n').find((l) => l.includes(answered.details.call_id)) as string;
    expect(line).toContain('UPSTREAM_FAILED (JSON-RPC -32603)');
    expect(gatewayLog).not.toContain('4111');
  });
});

describe('the class of upstream errors', () => {
  it('answers any JSON-RPC error an upstream sends with its own code and message (generated)', async () => {
    const client = clients.http as Client;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: -2_147_483_648, max: 2_147_483_647 }), fc.string({ maxLength: 40 }), async (code, message) => {
        const error = errorOf(await reply(client, { error: { code, message } }));
        expect(error.code).toBe('UPSTREAM_FAILED');
        expect(error.details.upstream_error).toEqual({ code, message });
      }),
      { numRuns: 25 },
    );
  }, 60_000);

  it('answers an upstream that goes away mid-call as UPSTREAM_UNAVAILABLE, and starts it again for the next', async () => {
    const client = clients.http as Client;
    const gone = errorOf(await reply(client, { exit: true }));
    expect(gone.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(gone.message).toContain('scripted');
    await client.listTools();
    expect((await reply(client, {})).isError).toBeFalsy();
  }, 20_000);

  it('says what a failing listing answered: a call of its tools, and a refresh, carry the upstream’s error', async () => {
    writeFileSync(state, JSON.stringify({ list_error: { code: -32603, message: 'Invalid API key for the ledger' } }));
    try {
      const client = clients.http as Client;
      expect((await client.listTools()).tools).toEqual([]);
      const error = errorOf(await reply(client, {}));
      expect(error.code).toBe('UPSTREAM_FAILED');
      expect(error.details.upstream_error).toEqual({ code: -32603, message: 'Invalid API key for the ledger' });
      const refreshed = await okJson(s.call('POST', '/v1/upstreams/refresh', { key: s.key('owner') }));
      const server = refreshed.servers.find((x: { name: string }) => x.name === 'scripted');
      expect(server.error.code).toBe('UPSTREAM_FAILED');
      expect(server.error.message).toContain('Invalid API key for the ledger');
    } finally {
      writeFileSync(state, '{}');
    }
    await (clients.http as Client).listTools();
    expect((await reply(clients.http as Client, {})).isError).toBeFalsy();
  }, 30_000);
});
