// /mcp as an OAuth 2.0 protected resource (docs/mcp.md, "Authorization"): the MCP SDK's client discovers the
// metadata and the issuer from the running server, connects with an issuer's token and lists its tools; an upstream
// over Streamable HTTP behind the gateway never sees the caller's token.
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { discoverOAuthServerInfo, extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { identityFrom, type Provider, startProvider } from './identity-provider.ts';
import { pinUpstreamTools } from './mcp-fixture.ts';
import { okJson, postEdit, startServer, type TestServer } from './server-harness.ts';

let s: TestServer;
let provider: Provider;
/** Every request the upstream received: its headers, all of them. */
const seen: Record<string, string>[] = [];
let upstream: ReturnType<typeof serve>;
const clients: Client[] = [];

/** An upstream MCP server over Streamable HTTP (stateless) with one tool, `echo`, that records each request's headers. */
async function startHttpUpstream(): Promise<string> {
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const started = serve(
      {
        hostname: '127.0.0.1',
        port: 0,
        fetch: async (req) => {
          seen.push(Object.fromEntries(req.headers));
          const mcp = new McpServer({ name: 'echoer', version: '1' });
          mcp.registerTool('echo', { description: 'Echoes its text.', inputSchema: { order: z.string() } }, ({ order }) => ({
            content: [{ type: 'text', text: `order ${order}` }],
          }));
          const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
          await mcp.connect(transport);
          return transport.handleRequest(req);
        },
      },
      () => resolve(started),
    );
  });
  upstream = server;
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

beforeAll(async () => {
  provider = await startProvider();
  s = await startServer({
    identity: (url) =>
      identityFrom({ resource: url, issuers: [{ issuer: provider.issuer, member_claim: 'email', agent_claim: 'client_id' }] }),
  });
  const url = await startHttpUpstream();
  await okJson(
    postEdit(s, 'mcp/servers.yaml', s.key('owner'), {
      content: `servers:\n  - name: echoer\n    http:\n      url: ${url}\n`,
      reason: 'an http upstream',
    }),
    201,
  );
  const catalogue = (await s.call('GET', '/v1/documents/catalogue.yaml', { key: s.key('owner') })).json.text as string;
  const mapped = catalogue.replace(/(- \{ name: read_order, [^\n]*?) \}\n/, '$1, upstream: { server: echoer, tool: echo } }\n');
  expect(mapped).not.toBe(catalogue);
  await okJson(postEdit(s, 'catalogue.yaml', s.key('owner'), { content: mapped, reason: 'read_order over http' }), 201);
  expect(await pinUpstreamTools(s)).toContain('read_order');
}, 30_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  s?.ctx.events.close();
  await s?.stop();
  await provider?.stop();
  await new Promise<void>((resolve) => (upstream ? upstream.close(() => resolve()) : resolve()));
});

const initialize = (authorization?: string) =>
  fetch(`${s.url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(authorization ? { authorization } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }),
  });

describe('/mcp as a protected resource', () => {
  it("is discovered by the SDK's client: the metadata names the issuer, whose own metadata it then reads", async () => {
    const info = await discoverOAuthServerInfo(new URL(`${s.url}/mcp`));
    expect(info.resourceMetadata).toMatchObject({
      resource: `${s.url}/mcp`,
      authorization_servers: [provider.issuer],
      bearer_methods_supported: ['header'],
    });
    expect(info.authorizationServerUrl.replace(/\/$/, '')).toBe(provider.issuer.replace(/\/$/, ''));
    expect(info.authorizationServerMetadata?.issuer).toBe(provider.issuer);
  });

  it('answers a request without a token 401, its challenge naming the metadata', async () => {
    const res = await initialize();
    expect(res.status).toBe(401);
    const params = extractWWWAuthenticateParams(res);
    expect(params.resourceMetadataUrl?.href).toBe(`${s.url}/.well-known/oauth-protected-resource/mcp`);
    expect(params.error).toBeUndefined();
    const refused = await initialize('Bearer not-a-token');
    expect(refused.status).toBe(401);
    expect(extractWWWAuthenticateParams(refused).error).toBe('invalid_token');
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('TOKEN_INVALID');
  });

  it("refuses a member's token: a session at /mcp is an agent's", async () => {
    const res = await initialize(`Bearer ${await provider.token({ aud: `${s.url}/mcp`, email: 'olivia' })}`);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('TOKEN_IDENTITY');
  });

  it("connects with an agent's token, lists its tools and calls one; the upstream never sees the token", async () => {
    const token = await provider.token({ aud: `${s.url}/mcp`, client_id: 'support-bot' });
    const client = new Client({ name: 'token-agent', version: '1' });
    clients.push(client);
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    );
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('read_order');
    const before = seen.length;
    const result = await client.callTool({ name: 'read_order', arguments: { order: 'A-7' } });
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: 'text', text: 'order A-7' }]);
    expect(seen.length).toBeGreaterThan(before);
    for (const headers of seen) {
      expect(headers.authorization).toBeUndefined();
      for (const value of Object.values(headers)) expect(value).not.toContain(token.split('.')[2]);
    }
  });
});
