// The MCP gateway in front of an upstream no one here wrote: @modelcontextprotocol/server-filesystem, over stdio, on
// a temporary folder. read_order maps to its read_text_file (orders.read: allowed) and issue_refund to its write_file
// (refund.issue: decided by the amount sent beside the path and content, which the upstream's input schema drops).
// A watcher on the folder shows what reached the disk, and when. Over /mcp (in process) and over `tollgate mcp`.
import { existsSync, mkdtempSync, readFileSync, rmSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, FILESYSTEM, mapUpstreams, nodeUpstream, pendingApprovalId, textOf } from './mcp-fixture.ts';
import { agentKey, okJson, REPO_ROOT, startServer, type TestServer } from './server-harness.ts';

const BIN = join(REPO_ROOT, 'apps/api/bin/tollgate.cjs');
const ORDER_TEXT = 'order H-1: 2 mugs, shipped\n';
const OUTSIDE_TEXT = 'not for the agent\n';

let s: TestServer;
let folder: string;
let outside: string;
/** The upstream itself, without the gateway: what it says of its own tools. */
let direct: Client;
let upstreamTools: Tool[];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The names a watcher on `dir` sees created, changed or renamed until `stop()` (inotify; events arrive late). */
function watchFolder(dir: string): { seen: string[]; stop(): void } {
  const seen: string[] = [];
  const watcher = watch(dir, (_event, name) => {
    if (name) seen.push(String(name));
  });
  return { seen, stop: () => watcher.close() };
}

/** The tool of this name in a tools/list answer. */
function toolNamed(tools: Tool[], name: string): Tool {
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name} in ${tools.map((t) => t.name).join(', ')}`);
  return tool;
}

beforeAll(async () => {
  s = await startServer();
  folder = mkdtempSync(join(tmpdir(), 'tollgate-fs-'));
  writeFileSync(join(folder, 'order-1.txt'), ORDER_TEXT);
  // Outside the folder the upstream may touch: the test server's data folder.
  outside = join(s.dataDir, 'outside.txt');
  writeFileSync(outside, OUTSIDE_TEXT);
  await mapUpstreams(s, [nodeUpstream('files', FILESYSTEM, [folder])], {
    read_order: { server: 'files', tool: 'read_text_file' },
    issue_refund: { server: 'files', tool: 'write_file' },
  });
  direct = new Client({ name: 'test-direct', version: '1' });
  await direct.connect(new StdioClientTransport({ command: process.execPath, args: [FILESYSTEM, folder], stderr: 'ignore' }));
  upstreamTools = (await direct.listTools()).tools;
}, 30_000);

afterAll(async () => {
  await direct?.close();
  s?.ctx.events.close();
  await s?.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

/** What every transport must show: the call held, nothing on disk until a person approves, then one write. */
async function heldWriteIsWrittenOnceApproved(client: Client, file: string, content: string): Promise<void> {
  const target = join(folder, file);
  const watcher = watchFolder(folder);
  try {
    const pending = client.callTool({ name: 'issue_refund', arguments: { path: target, content, amount: '500' } }, undefined, {
      timeout: 30_000,
    });
    const approvalId = await pendingApprovalId(s);
    await sleep(1000);
    expect(existsSync(target)).toBe(false);
    expect(watcher.seen).toEqual([]);
    await okJson(s.call('POST', `/v1/approvals/${approvalId}/approve`, { key: s.key('approver'), body: {} }));
    const result = await pending;
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe(`Successfully wrote to ${target}`);
    expect(readFileSync(target, 'utf8')).toBe(content);
    // The watcher reports the write when it comes to it (later on a loaded machine); then a moment for any other.
    await expect.poll(() => watcher.seen, { timeout: 10_000 }).toContain(file);
    await sleep(300);
    // write_file creates a new file exclusively, and writes an existing one through a temporary file renamed over
    // it: a second write would have shown that temporary file's name.
    expect(new Set(watcher.seen)).toEqual(new Set([file]));
    const approval = await s.call('GET', `/v1/approvals/${approvalId}`, { key: s.key('viewer') });
    expect(approval.json.claimed_at).not.toBeNull();
  } finally {
    watcher.stop();
  }
}

/** A write the policy denies: the gate's error, and nothing on disk. */
async function deniedWriteNeverTouchesTheDisk(client: Client, file: string): Promise<void> {
  const target = join(folder, file);
  const watcher = watchFolder(folder);
  try {
    const result = await client.callTool({ name: 'issue_refund', arguments: { path: target, content: 'no', amount: '5000' } });
    expect(errorOf(result)).toMatchObject({ code: 'DENIED', details: { rule: 'refund-over-limit' } });
    await sleep(300);
    expect(existsSync(target)).toBe(false);
    expect(watcher.seen).toEqual([]);
  } finally {
    watcher.stop();
  }
}

/** A read outside the folder: the upstream's own refusal, as a tool result, and the gateway serves on. */
async function outsideReadIsTheUpstreamsError(client: Client): Promise<void> {
  const result = await client.callTool({ name: 'read_order', arguments: { path: outside } });
  expect(result.isError).toBe(true);
  const text = textOf(result);
  expect(text).toBe(`Access denied - path outside allowed directories: ${outside} not in ${folder}`);
  expect(text).not.toContain(OUTSIDE_TEXT.trim());
  const again = await client.callTool({ name: 'read_order', arguments: { path: join(folder, 'order-1.txt') } });
  expect(again.content).toEqual([{ type: 'text', text: ORDER_TEXT }]);
}

describe('server-filesystem behind /mcp', () => {
  let client: Client;

  beforeAll(async () => {
    client = new Client({ name: 'test-agent', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${agentKey(s, 'support-bot')}` } },
      }),
    );
  });

  afterAll(async () => {
    await client?.close();
  });

  it('lists the mapped tools by their catalogue names with the upstream’s own description and input schema', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['issue_refund', 'read_order']);
    const read = toolNamed(upstreamTools, 'read_text_file');
    const write = toolNamed(upstreamTools, 'write_file');
    expect(toolNamed(tools, 'read_order')).toMatchObject({ description: read.description, inputSchema: read.inputSchema });
    expect(toolNamed(tools, 'issue_refund')).toMatchObject({ description: write.description, inputSchema: write.inputSchema });
    expect(write.inputSchema).toMatchObject({ required: ['path', 'content'] });
  });

  it('forwards an allowed read and returns the real file’s text', async () => {
    const result = await client.callTool({ name: 'read_order', arguments: { path: join(folder, 'order-1.txt') } });
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: 'text', text: ORDER_TEXT }]);
    expect(result.structuredContent).toEqual({ content: ORDER_TEXT });
  });

  it('passes the upstream’s own error for a path outside its folder through as a tool result', async () => {
    await outsideReadIsTheUpstreamsError(client);
  });

  it('refuses a denied write, which never touches the disk', async () => {
    await deniedWriteNeverTouchesTheDisk(client, 'denied-http.txt');
  });

  it('holds a write until a person approves it, then writes the file exactly once', async () => {
    await heldWriteIsWrittenOnceApproved(client, 'held-http.txt', 'refund note for H-2\n');
  }, 40_000);
});

describe('server-filesystem behind tollgate mcp (stdio)', () => {
  let client: Client;

  beforeAll(async () => {
    client = new Client({ name: 'test-agent', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'mcp', '--agent', 'support-bot', '--data', s.dataDir, '--approval-wait', '20'],
        env: { PATH: process.env.PATH ?? '', TOLLGATE_AGENT_KEY: agentKey(s, 'support-bot') },
        stderr: 'ignore',
      }),
    );
  }, 30_000);

  afterAll(async () => {
    await client?.close();
  });

  it('reads the real file, and passes the upstream’s error for a path outside the folder through', async () => {
    const { tools } = await client.listTools();
    expect(toolNamed(tools, 'read_order').inputSchema).toEqual(toolNamed(upstreamTools, 'read_text_file').inputSchema);
    await outsideReadIsTheUpstreamsError(client);
  }, 20_000);

  it('refuses a denied write without touching the disk, and writes a held one once, after approval', async () => {
    await deniedWriteNeverTouchesTheDisk(client, 'denied-stdio.txt');
    await heldWriteIsWrittenOnceApproved(client, 'held-stdio.txt', 'refund note for H-3\n');
  }, 40_000);
});
