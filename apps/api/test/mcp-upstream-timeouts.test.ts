// Each caller's upstream bound holds, whoever made the shared connection (docs/mcp.md, "Upstream timeouts"):
// `tollgate serve --mcp-upstream-timeout 1` run as a child process, with an upstream that answers as late as it is
// told (fixtures/scripted-upstream.mjs). A /mcp call keeps its 1 s after a refresh (10 s) started the upstream, and a
// refresh keeps its 10 s after a /mcp session (1 s) started it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, mapUpstreams, nodeUpstream } from './mcp-fixture.ts';
import { agentKey, REPO_ROOT, spawnServer, startServer } from './server-harness.ts';

const SCRIPTED = join(REPO_ROOT, 'apps/api/test/fixtures/scripted-upstream.mjs');

let dataDir: string;
let state: string;
let agent: string;
let owner: string;

beforeAll(async () => {
  // The folder is seeded and mapped by an in-process server, then served by the CLI with the option.
  const seeded = await startServer({ dataDir: mkdtempSync(join(tmpdir(), 'tollgate-timeouts-')) });
  dataDir = seeded.dataDir;
  state = join(dataDir, 'scripted.json');
  writeFileSync(state, '{}');
  await mapUpstreams(seeded, [nodeUpstream('scripted', SCRIPTED, [state])], { read_order: { server: 'scripted', tool: 'reply' } });
  agent = agentKey(seeded, 'support-bot');
  owner = seeded.key('owner');
  seeded.ctx.events.close();
  await seeded.stop();
}, 60_000);

afterAll(() => {
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** `tollgate serve --mcp-upstream-timeout 1` on the folder, for `body`; stopped afterwards. */
async function served(body: (url: string, client: () => Promise<Client>) => Promise<void>): Promise<void> {
  writeFileSync(state, '{}');
  const server = await spawnServer(dataDir, ['--mcp-upstream-timeout', '1'], { demo: false });
  const clients: Client[] = [];
  const connect = async () => {
    const client = new Client({ name: 'test-agent', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${agent}` } } }),
    );
    clients.push(client);
    return client;
  };
  try {
    await body(server.url, connect);
  } finally {
    for (const client of clients) await client.close();
    server.child.kill('SIGTERM');
    await new Promise((r) => server.child.once('exit', r));
  }
}

async function refresh(url: string): Promise<{ servers: { name: string; error?: { code: string } }[] }> {
  const res = await fetch(`${url}/v1/upstreams/refresh`, { method: 'POST', headers: { authorization: `Bearer ${owner}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as never;
}

describe('an upstream bound per caller, on one shared connection', () => {
  it('keeps --mcp-upstream-timeout for a /mcp call after a refresh started the upstream with its 10 s', async () => {
    await served(async (url, connect) => {
      expect((await refresh(url)).servers.find((s) => s.name === 'scripted')?.error).toBeUndefined();
      const client = await connect();
      const started = Date.now();
      const late = errorOf(await client.callTool({ name: 'read_order', arguments: { delay_ms: 4000 } }, undefined, { timeout: 20_000 }));
      expect(late.code).toBe('UPSTREAM_TIMEOUT');
      expect(Date.now() - started).toBeLessThan(3500);
      expect((await client.callTool({ name: 'read_order', arguments: {} })).isError).toBeFalsy();
    });
  }, 60_000);

  it('keeps a refresh’s 10 s after a /mcp session started the upstream with --mcp-upstream-timeout 1', async () => {
    await served(async (url, connect) => {
      const client = await connect();
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['read_order']);
      // Listing now takes 2.5 s: over the session's bound, within the refresh's.
      writeFileSync(state, JSON.stringify({ list_delay_ms: 2500 }));
      const refreshed = await refresh(url);
      expect(refreshed.servers.find((s) => s.name === 'scripted')?.error).toBeUndefined();
      // The session's own bound still holds for its own listing.
      expect((await client.listTools()).tools).toEqual([]);
      expect(errorOf(await client.callTool({ name: 'read_order', arguments: {} })).code).toBe('UPSTREAM_TIMEOUT');
    });
  }, 60_000);
});
