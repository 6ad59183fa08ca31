// The gateway's side towards upstream MCP servers (mcp/servers.yaml): one SDK Client per server, connected on
// first use over stdio or Streamable HTTP, each call bounded by a timeout, so one slow server never holds
// another's calls (each call awaits only its own server). Secrets come from the environment, never the document.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type CallToolResult,
  CallToolResultSchema,
  type Progress,
  ProgressNotificationSchema,
  type Tool,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { readUpstreams, UPSTREAMS_ID, type Upstream } from '@tollgate/engine';
import type { AppContext } from '../context.ts';

/** The variables every started upstream gets beside those its env names, so a command such as npx is found. */
const BASE_ENV = ['PATH', 'HOME'];

/** Why an upstream call did not give a result: the code the agent is told. */
export class UpstreamError extends Error {
  constructor(
    readonly code: 'UPSTREAM_UNAVAILABLE' | 'UPSTREAM_TIMEOUT' | 'UPSTREAM_MALFORMED' | 'UPSTREAM_FAILED',
    message: string,
  ) {
    super(message);
  }
}

export class UpstreamPool {
  private readonly clients = new Map<string, Promise<Client>>();
  /** Each server's last listing, until it says its list changed or its connection ends. */
  private readonly listings = new Map<string, Promise<Tool[]>>();
  /** Called with each listing a server gives (the gateway records the definitions it saw). */
  onListed?: (server: string, tools: Tool[]) => Promise<void> | void;
  /** Where each call's progress goes, by the progress token the pool sent the upstream. */
  private readonly progress = new Map<string, (progress: Progress) => void>();
  private calls = 0;

  constructor(
    readonly servers: readonly Upstream[],
    private readonly timeoutMs: number,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  /**
   * The tools a server offers, or an UpstreamError: asked anew when `fresh` (an agent's tools/list), else
   * the last listing, which a server's `notifications/tools/list_changed` or a new connection forgets.
   */
  listTools(server: string, fresh = false): Promise<Tool[]> {
    const held = this.listings.get(server);
    if (held && !fresh) return held;
    const listing = this.ask(server);
    this.listings.set(server, listing);
    listing.catch(() => {
      if (this.listings.get(server) === listing) this.listings.delete(server);
    });
    return listing;
  }

  private async ask(server: string): Promise<Tool[]> {
    const client = await this.client(server);
    let tools: Tool[];
    try {
      tools = (await client.listTools(undefined, { timeout: this.timeoutMs })).tools;
    } catch (err) {
      throw failure(server, err);
    }
    await this.onListed?.(server, tools);
    return tools;
  }

  /**
   * Forwards a call; the upstream's result as it gave it, or an UpstreamError. With `onprogress`, the upstream
   * is sent a progress token of the pool's own (never the agent's) and its progress is handed on.
   */
  async callTool(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
    onprogress?: (progress: Progress) => void,
  ): Promise<CallToolResult> {
    const client = await this.client(server);
    const token = `tollgate-${++this.calls}`;
    if (onprogress) this.progress.set(token, onprogress);
    try {
      const result = await client.callTool(
        { name: tool, arguments: args, ...(onprogress ? { _meta: { progressToken: token } } : {}) },
        CallToolResultSchema,
        { timeout: this.timeoutMs, ...(signal ? { signal } : {}) },
      );
      return result as CallToolResult;
    } catch (err) {
      throw failure(server, err);
    } finally {
      this.progress.delete(token);
    }
  }

  async close(): Promise<void> {
    const clients = [...this.clients.values()];
    this.clients.clear();
    this.listings.clear();
    await Promise.all(clients.map((c) => c.then((client) => client.close()).catch(() => undefined)));
  }

  private client(name: string): Promise<Client> {
    let client = this.clients.get(name);
    if (!client) {
      client = this.connect(name);
      this.clients.set(name, client);
      // A server that could not be reached is tried again on the next call.
      client.catch(() => this.clients.delete(name));
    }
    return client;
  }

  private async connect(name: string): Promise<Client> {
    const server = this.servers.find((s) => s.name === name);
    if (!server) throw new UpstreamError('UPSTREAM_UNAVAILABLE', `mcp/servers.yaml has no server named ${name}`);
    const client = new Client({ name: 'tollgate', version: '1' });
    client.onerror = () => {};
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      this.listings.delete(name);
    });
    // The pool's own progress tokens, not the SDK's `onprogress`: the SDK forgets a call's handler when its
    // result arrives, before it hands on a notification read just ahead of that result (the last one, 100%).
    client.setNotificationHandler(ProgressNotificationSchema, ({ params: { progressToken, progress, total, message } }) => {
      this.progress.get(String(progressToken))?.({
        progress,
        ...(total !== undefined ? { total } : {}),
        ...(message !== undefined ? { message } : {}),
      });
    });
    const transport = this.transportOf(server);
    try {
      await withTimeout(client.connect(transport), this.timeoutMs);
    } catch (err) {
      await transport.close().catch(() => undefined);
      throw new UpstreamError('UPSTREAM_UNAVAILABLE', `upstream ${name} could not be reached: ${(err as Error).message}`);
    }
    // A server that went away is connected again, and listed again, on its next call.
    client.onclose = () => {
      this.clients.delete(name);
      this.listings.delete(name);
    };
    return client;
  }

  private transportOf(server: Upstream): Transport {
    if (server.transport === 'stdio') {
      const env: Record<string, string> = {};
      for (const key of [...BASE_ENV, ...server.env]) {
        const value = this.env[key];
        if (value !== undefined) env[key] = value;
      }
      return new StdioClientTransport({ command: server.command, args: server.args, env, stderr: 'ignore' });
    }
    const headers: Record<string, string> = {};
    for (const [header, variable] of Object.entries(server.headers)) {
      const value = this.env[variable];
      if (value !== undefined) headers[header] = value;
    }
    return new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } });
  }
}

function failure(server: string, err: unknown): UpstreamError {
  if (err instanceof UpstreamError) return err;
  const message = (err as Error).message ?? String(err);
  const code = (err as { code?: unknown }).code;
  // The SDK's McpError codes: -32001 a request timed out; -32602 and parse errors a result that did not conform.
  if (code === -32001) return new UpstreamError('UPSTREAM_TIMEOUT', `upstream ${server} did not answer in time`);
  if (code === -32602 || code === -32700 || /invalid|expected/i.test(message)) {
    return new UpstreamError('UPSTREAM_MALFORMED', `upstream ${server} answered with something that is not a tool result`);
  }
  return new UpstreamError('UPSTREAM_FAILED', `upstream ${server} failed: ${message}`);
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

export interface PoolOptions {
  /** How long an upstream may take to connect or answer. */
  upstreamTimeoutMs: number;
  env?: NodeJS.ProcessEnv;
}

const pools = new WeakMap<AppContext, { sequence: number; pool: UpstreamPool }>();

/**
 * The data folder's pool of upstream connections for the running upstreams document, shared by every gateway
 * of the process (the HTTP transport makes one a request) and the refresh route, made again when a new version
 * runs, and closed with the server (its events hub closing). Every listing's definitions are recorded
 * (state/upstream-definitions.ts), so a changed definition is seen whoever asked.
 */
export async function upstreamPoolOf(ctx: AppContext, options: PoolOptions): Promise<UpstreamPool> {
  const doc = await ctx.store.get(UPSTREAMS_ID);
  const sequence = doc?.sequence ?? 0;
  const held = pools.get(ctx);
  if (held?.sequence === sequence) return held.pool;
  const read = doc ? readUpstreams(doc.text) : undefined;
  void held?.pool.close();
  const pool = new UpstreamPool(read?.ok ? read.upstreams.servers : [], options.upstreamTimeoutMs, options.env);
  pool.onListed = (server, tools) =>
    // A listing not recorded now is recorded by the next; until then a changed definition is not offered anyway.
    ctx.state.recordListed(server, tools, ctx.now()).catch(() => {});
  if (!held) ctx.events.onClose(() => void pools.get(ctx)?.pool.close());
  pools.set(ctx, { sequence, pool });
  return pool;
}
