// The gateway's side towards upstream MCP servers (mcp/servers.yaml): one SDK Client per server, connected on
// first use over stdio or Streamable HTTP, each request bounded by its own caller's timeout (whoever made the
// connection), so one slow server never holds another's calls (each call awaits only its own server). Secrets come from the environment, never the document.

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
import { listedDigest } from '../state/tools/model.ts';
import { attemptIn, type SharedAttempt } from './shared-attempt.ts';
import { markUpstreamErrors, UpstreamError, upstreamFailure } from './upstream-failure.ts';

export { UpstreamError } from './upstream-failure.ts';

/** The variables every started upstream gets beside those its env names, so a command such as npx is found. */
const BASE_ENV = ['PATH', 'HOME'];

/** The SDK's own bound on a request the pool bounds itself (SharedAttempt): the longest a timer can wait. */
const UNBOUNDED_MS = 2 ** 31 - 1;

/** What bounds one caller's request: its own timeout, whoever else shares the connection (docs/mcp.md). */
export interface UpstreamRequest {
  /** How long the upstream may take to start, and then to answer. */
  timeoutMs: number;
  /** The agent's cancellation of its call. */
  signal?: AbortSignal;
}

export class UpstreamPool {
  private readonly clients = new Map<string, SharedAttempt<Client>>();
  /** Each server's last listing, until it says its list changed or its connection ends. */
  private readonly listings = new Map<string, SharedAttempt<Tool[]>>();
  /** Each server's last listing as names and digests, to tell a listing that differs from the one before. */
  private readonly lastListed = new Map<string, string>();
  /** Called with each listing a server gives (the gateway records the definitions it saw). */
  onListed?: (server: string, tools: Tool[]) => Promise<void> | void;
  /** Called when a server's tools may have changed: it said so (list_changed), or a listing differs from the last. */
  onChanged?: (server: string) => void;
  /** Where each call's progress goes, by the progress token the pool sent the upstream. */
  private readonly progress = new Map<string, (progress: Progress) => void>();
  private calls = 0;

  constructor(
    readonly servers: readonly Upstream[],
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  /**
   * The tools a server offers, or an UpstreamError: asked anew when `fresh` (an agent's tools/list), else
   * the last listing, which a server's `notifications/tools/list_changed` or a new connection forgets.
   */
  async listTools(server: string, request: UpstreamRequest & { fresh?: boolean; listedOnly?: boolean }): Promise<Tool[]> {
    // listedOnly: nothing for a server this pool never listed, which is not started for it (a gateway re-reading
    // what it offers must not start upstreams nobody asked for); one listed before is listed as usual.
    if (request.listedOnly && !request.fresh && !this.lastListed.has(server)) return [];
    const client = await this.client(server, request);
    // A fresh listing is asked anew; one that fails is asked again by the next caller.
    const listing = attemptIn(this.listings, server, (signal) => this.ask(server, client, signal), request.fresh);
    return listing.wait(
      request.timeoutMs,
      () => new UpstreamError('UPSTREAM_TIMEOUT', `upstream ${server} did not list its tools within ${request.timeoutMs} ms`),
      request.signal,
    );
  }

  private async ask(server: string, client: Client, signal: AbortSignal): Promise<Tool[]> {
    let tools: Tool[];
    try {
      tools = (await client.listTools(undefined, { signal, timeout: UNBOUNDED_MS })).tools;
    } catch (err) {
      throw upstreamFailure(server, err);
    }
    await this.onListed?.(server, tools);
    const listed = JSON.stringify(tools.map((t) => [t.name, listedDigest(server, t)]).sort());
    const before = this.lastListed.get(server);
    this.lastListed.set(server, listed);
    if (before !== undefined && before !== listed) this.onChanged?.(server);
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
    request: UpstreamRequest & { onprogress?: (progress: Progress) => void },
  ): Promise<CallToolResult> {
    const client = await this.client(server, request);
    const token = `tollgate-${++this.calls}`;
    const { onprogress, signal } = request;
    if (onprogress) this.progress.set(token, onprogress);
    try {
      const result = await client.callTool(
        { name: tool, arguments: args, ...(onprogress ? { _meta: { progressToken: token } } : {}) },
        CallToolResultSchema,
        { timeout: request.timeoutMs, ...(signal ? { signal } : {}) },
      );
      return result as CallToolResult;
    } catch (err) {
      throw upstreamFailure(server, err, signal);
    } finally {
      this.progress.delete(token);
    }
  }

  async close(): Promise<void> {
    const clients = [...this.clients.values()];
    this.clients.clear();
    this.listings.clear();
    await Promise.all(clients.map((c) => c.promise.then((client) => client.close()).catch(() => undefined)));
  }

  /** The server's connection, made by the first caller; each caller waits for it within its own bound. */
  private client(name: string, request: UpstreamRequest): Promise<Client> {
    // A server that could not be reached is tried again on the next call.
    const client = attemptIn(this.clients, name, (signal) => this.connect(name, signal));
    return client.wait(
      request.timeoutMs,
      () => new UpstreamError('UPSTREAM_UNAVAILABLE', `upstream ${name} could not be reached: no answer in ${request.timeoutMs} ms`),
      request.signal,
    );
  }

  private async connect(name: string, signal: AbortSignal): Promise<Client> {
    const server = this.servers.find((s) => s.name === name);
    if (!server) throw new UpstreamError('UPSTREAM_UNAVAILABLE', `mcp/servers.yaml has no server named ${name}`);
    const client = new Client({ name: 'tollgate', version: '1' });
    client.onerror = () => {};
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      this.listings.delete(name);
      this.onChanged?.(name);
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
    const transport = markUpstreamErrors(this.transportOf(server));
    // No caller waits any more (each bound passed): the start is given up.
    const giveUp = () => void transport.close().catch(() => undefined);
    signal.addEventListener('abort', giveUp, { once: true });
    try {
      await client.connect(transport, { signal, timeout: UNBOUNDED_MS });
    } catch (err) {
      await transport.close().catch(() => undefined);
      throw new UpstreamError('UPSTREAM_UNAVAILABLE', `upstream ${name} could not be reached: ${(err as Error).message}`);
    } finally {
      signal.removeEventListener('abort', giveUp);
    }
    // A server that went away is connected again, and listed again, on its next call.
    client.onclose = () => {
      if (this.clients.get(name)?.value === client) this.clients.delete(name);
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

export interface PoolOptions {
  env?: NodeJS.ProcessEnv | undefined;
}

const pools = new WeakMap<AppContext, { sequence: number; generation: number; pool: UpstreamPool }>();

/**
 * The data folder's pool of upstream connections for the running upstreams document, shared by every gateway
 * of the process (the HTTP transport makes one a request) and the refresh route, made again when a new version
 * runs, and closed with the server (its events hub closing). Every listing's definitions are recorded
 * (state/tools/), so a changed definition is seen whoever asked.
 */
export async function upstreamPoolOf(ctx: AppContext, options: PoolOptions = {}): Promise<UpstreamPool> {
  // Every call asks twice (its listing, its forward): while no document was written, the pool stands, as the
  // gate's loaded agents do (load-agent.ts); reading the store's index and version costs about 0.1 ms a time
  // (docs/performance.md, "The mcp suite"). The generation is taken before the read, so a write meanwhile is
  // read on the next ask.
  await ctx.documentsFresh?.();
  const generation = ctx.documentChanges.generation;
  const held = pools.get(ctx);
  if (held?.generation === generation) return held.pool;
  const doc = await ctx.store.get(UPSTREAMS_ID);
  const sequence = doc?.sequence ?? 0;
  const current = pools.get(ctx);
  if (current?.sequence === sequence) {
    current.generation = generation;
    return current.pool;
  }
  const read = doc ? readUpstreams(doc.text) : undefined;
  void current?.pool.close();
  const pool = new UpstreamPool(read?.ok ? read.upstreams.servers : [], options.env);
  pool.onListed = (server, tools) =>
    // A listing not recorded now is recorded by the next; until then a changed definition is not offered anyway.
    ctx.state.recordListed(server, tools, ctx.now()).catch(() => {});
  pool.onChanged = (server) => {
    for (const listener of changeListeners(ctx)) listener(server);
  };
  if (!current) ctx.events.onClose(() => void pools.get(ctx)?.pool.close());
  pools.set(ctx, { sequence, generation, pool });
  return pool;
}

const listeners = new WeakMap<AppContext, Set<(server: string) => void>>();

function changeListeners(ctx: AppContext): Set<(server: string) => void> {
  let set = listeners.get(ctx);
  if (!set) {
    set = new Set();
    listeners.set(ctx, set);
  }
  return set;
}

/**
 * Calls `listener` when an upstream of the data folder's pool (whichever version of the document made it) says
 * its tools changed, or lists other tools than before; returns a function that stops it.
 */
export function onUpstreamChanged(ctx: AppContext, listener: (server: string) => void): () => void {
  const set = changeListeners(ctx);
  set.add(listener);
  return () => set.delete(listener);
}
