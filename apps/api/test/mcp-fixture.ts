// What the MCP gateway's tests share: the upstreams document and catalogue mappings written through the API
// as an owner would, the recording upstream's log, and a tool result's error read back.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'vitest';
import type { AppContext } from '../src/server/context.ts';
import { agentKey, type LooseJson, okJson, postEdit, REPO_ROOT, type TestServer } from './server-harness.ts';

/** A small upstream that appends every call it receives to RECORD_FILE (fixtures/recording-upstream.mjs). */
export const RECORDER = join(REPO_ROOT, 'apps/api/test/fixtures/recording-upstream.mjs');
/** An upstream no one here wrote: the MCP maintainers' reference server, a pinned dev dependency. */
export const EVERYTHING = join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
/** The MCP maintainers' filesystem server, a pinned dev dependency: its arguments are the folders it may touch. */
export const FILESYSTEM = join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

export interface StdioUpstream {
  name: string;
  command: string;
  args?: string[];
  /** Names of the variables the gateway hands the upstream from its own environment. */
  env?: string[];
}

/** The upstreams document for `servers`, every one over stdio. */
export function upstreamsYaml(servers: readonly StdioUpstream[]): string {
  const lines = ['servers:'];
  for (const s of servers) {
    lines.push(`  - name: ${s.name}`, '    stdio:', `      command: ${JSON.stringify(s.command)}`);
    if (s.args) lines.push(`      args: [${s.args.map((a) => JSON.stringify(a)).join(', ')}]`);
    if (s.env) lines.push(`      env: [${s.env.join(', ')}]`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The recording upstream for a test: its log is `file` in the server's data folder, named to it by RECORD_FILE,
 * a variable the gateway passes on from its own environment because the upstream names it (unset it afterwards).
 *
 * @example
 * const { record, upstream } = recordingUpstream(s, 'recorded-http.jsonl');
 */
export function recordingUpstream(s: Pick<TestServer<AppContext>, 'dataDir'>, file: string): { record: string; upstream: StdioUpstream } {
  const record = join(s.dataDir, file);
  process.env.RECORD_FILE = record;
  return { record, upstream: nodeUpstream('recorder', RECORDER, [], ['RECORD_FILE']) };
}

/** A node script run as an upstream over stdio. */
export function nodeUpstream(name: string, script: string, args: string[] = [], env?: string[]): StdioUpstream {
  return { name, command: process.execPath, args: [script, ...args], ...(env ? { env } : {}) };
}

/**
 * Writes the upstreams document and maps catalogue tools to upstream tools, as the owner, in the demo
 * catalogue's flow style (`- { name: X, ... }` on one line each); then, unless `pin` is false, has the
 * server ask every upstream and authorizes each mapped tool's definition (pinUpstreamTools).
 *
 * @example
 * await mapUpstreams(s, [nodeUpstream('recorder', RECORDER)], { issue_refund: { server: 'recorder', tool: 'refund' } });
 */
export async function mapUpstreams(
  s: TestServer<AppContext>,
  servers: readonly StdioUpstream[],
  mappings: Record<string, { server: string; tool: string }>,
  options: { pin?: boolean } = {},
): Promise<void> {
  await okJson(postEdit(s, 'mcp/servers.yaml', s.key('owner'), { content: upstreamsYaml(servers), reason: 'the upstreams' }), 201);
  const catalogue = (await s.call('GET', '/v1/documents/catalogue.yaml', { key: s.key('owner') })).json.text as string;
  let mapped = catalogue;
  for (const [tool, target] of Object.entries(mappings)) {
    // An earlier mapping of the tool is replaced, not repeated.
    const line = new RegExp(`(- \\{ name: ${tool}, [^\\n]*?)(, upstream: \\{[^}\\n]*\\})? \\}\\n`);
    expect(mapped, `the catalogue has a one-line entry for ${tool}`).toMatch(line);
    mapped = mapped.replace(line, `$1, upstream: { server: ${target.server}, tool: ${target.tool} } }\n`);
  }
  await okJson(postEdit(s, 'catalogue.yaml', s.key('owner'), { content: mapped, reason: 'map tools to upstreams' }), 201);
  if (options.pin !== false) await pinUpstreamTools(s);
}

/**
 * As an owner reviewing them: refreshes the upstreams (the server lists each one) and authorizes every mapped
 * tool of the catalogue whose upstream definition is not the authorized one, with the digests it read.
 * Returns the names authorized.
 */
export async function pinUpstreamTools(s: TestServer<AppContext>, catalogue = 'catalogue.yaml'): Promise<string[]> {
  await okJson(s.call('POST', '/v1/upstreams/refresh', { key: s.key('owner') }));
  const tools = await okJson(s.call('GET', `/v1/catalogues/${encodeURIComponent(catalogue)}/tools`, { key: s.key('owner') }));
  const authorized: string[] = [];
  for (const tool of tools.tools as LooseJson[]) {
    if (!tool.upstream?.seen || (tool.upstream.state === 'authorized' && tool.authorized)) continue;
    await okJson(
      s.call('POST', `/v1/catalogues/${encodeURIComponent(catalogue)}/tools/${tool.name}/authorize`, {
        key: s.key('owner'),
        body: { digest: tool.digest, upstream_digest: tool.upstream.seen.digest },
      }),
    );
    authorized.push(tool.name);
  }
  return authorized;
}

/** Adds a rule to support-bot's sheet, as the owner: the catalogue tool `tool` asks for a person's confirmation. */
export async function requireConfirmation(s: TestServer<AppContext>, tool: string): Promise<void> {
  const sheet = (await s.call('GET', '/v1/documents/sheets%2Fsupport.rules.yaml', { key: s.key('owner') })).json.text as string;
  const confirming = `${sheet}  - action: ${tool}\n    requires_confirmation: true\n`;
  await okJson(postEdit(s, 'sheets/support.rules.yaml', s.key('owner'), { content: confirming, reason: `confirm ${tool}` }), 201);
}

/** The calls a recording upstream received, in order (none when it never started). */
export function recordedCalls(file: string): { tool: string; arguments: Record<string, unknown> }[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
}

type Text = { type: string; text: string };

/** The text of a tool result's first content item. */
export function textOf(result: Record<string, unknown>): string {
  return ((result.content as Text[])[0] as Text).text;
}

/** The project's error shape in an error result (and that it is one). */
export function errorOf(result: Record<string, unknown>): { code: string; message: string; details: LooseJson } {
  expect(result.isError).toBe(true);
  return JSON.parse(textOf(result)).error;
}

/** The ids of the pending approvals now. */
export async function pendingApprovalIds(s: TestServer<AppContext>): Promise<string[]> {
  const list = await s.call('GET', '/v1/approvals?status=pending', { key: s.key('approver') });
  return ((list.json.approvals ?? []) as { id: string }[]).map((a) => a.id);
}

/**
 * The id of the newest pending approval once one is listed (a held call's request), polled for 10 s; one of
 * `besides` (pending before the call was sent) is not it.
 */
export async function pendingApprovalId(s: TestServer<AppContext>, besides: readonly string[] = []): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const list = await s.call('GET', '/v1/approvals?status=pending', { key: s.key('approver') });
    const id = list.json.approvals?.[0]?.id as string | undefined;
    if (id !== undefined && !besides.includes(id)) return id;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('no approval request was listed within 10 s');
}

/** The SDK's own Client connected to the server's /mcp as `agent` (its key as the Bearer token). */
export async function connectHttp(s: TestServer<AppContext>, name = 'test-agent', agent = 'support-bot'): Promise<Client> {
  const client = new Client({ name, version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${agentKey(s, agent)}` } },
    }),
  );
  return client;
}

/**
 * Sends `issue_refund` with `args`, which the demo policy holds, and cancels it once its approval request is
 * listed; then, the client's call rejected, waits a moment for the gateway to stop waiting. The approval's id.
 */
export async function cancelWhileHeld(s: TestServer<AppContext>, client: Client, args: Record<string, unknown>): Promise<string> {
  const held = await pendingApprovalIds(s);
  const abort = new AbortController();
  const pending = client.callTool({ name: 'issue_refund', arguments: args }, undefined, { signal: abort.signal, timeout: 30_000 });
  const approvalId = await pendingApprovalId(s, held);
  abort.abort();
  await expect(pending).rejects.toThrow();
  await new Promise((r) => setTimeout(r, 600));
  return approvalId;
}
