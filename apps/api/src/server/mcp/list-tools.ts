// What a gateway offers its agent (docs/mcp.md, "Pinned tool definitions", "Tools withheld and offered again"):
// the agent's catalogue tools mapped to a tool their upstream lists, each with the upstream's definition and
// whether it is the one authorized; tools/list's answer, the authorized ones under their catalogue names; and
// notifications/tools/list_changed once what the client would be offered is no longer what it was last told.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { CatalogueTool } from '@tollgate/engine';
import type { AppContext } from '../context.ts';
import { type LoadedAgent, loadAgentCached } from '../gate/load-agent.ts';
import { listedDigest } from '../state/tools/model.ts';
import { watchOffers } from './offer-watch.ts';
import { UpstreamError, type UpstreamPool } from './upstream-pool.ts';

export interface MappedTool {
  tool: CatalogueTool;
  /** The upstream's definition as it last listed it. */
  upstream: Tool;
  /** Whether that definition is the one an owner or admin authorized. */
  authorized: boolean;
}

/** The catalogue tools mapped to a tool their upstream lists, and those whose upstream failed to list. */
export interface Mapped {
  tools: Map<string, MappedTool>;
  unlisted: Map<string, UpstreamError>;
}

export const NOTHING_MAPPED: Mapped = { tools: new Map(), unlisted: new Map() };

/**
 * How the upstreams are asked: 'fresh' asks every upstream anew (tools/list); 'last' uses the last listing (a
 * call); 'listed' uses only listings made already (a re-reading of what is offered): a server never listed has no
 * authorized definition to offer, and is not started for it.
 */
export type Listing = 'fresh' | 'last' | 'listed';

/** A gateway's way to its upstreams: the pool of the running upstreams document, asked at each use, and its bound. */
export interface GatewayUpstreams {
  pool: () => Promise<UpstreamPool>;
  /** How long an upstream may take to connect or answer. */
  timeoutMs: number;
}

/**
 * The agent's catalogue tools that map to a tool their upstream lists, each with what the upstream says of it
 * and whether that definition is the one authorized (docs/mcp.md, "Pinned tool definitions").
 *
 * @example
 * const offered = await mappedTools(ctx, 'support-bot', upstreams, 'last');
 * offered.tools.get('read_order')?.authorized; // true
 */
export async function mappedTools(ctx: AppContext, agent: string, upstreams: GatewayUpstreams, listing: Listing): Promise<Mapped> {
  const fresh = listing === 'fresh';
  const listedOnly = listing === 'listed';
  const { loaded } = await loadAgentCached(ctx, agent);
  const { tools, servers } = upstreamToolsOf(loaded);
  const live = await upstreams.pool();
  // Servers are asked at once; one that fails offers nothing, and never holds the others' tools.
  const failed = new Map<string, UpstreamError>();
  const listed = await Promise.all(
    servers.map((s) =>
      live.listTools(s, { timeoutMs: upstreams.timeoutMs, fresh, listedOnly }).then(
        (found) => found,
        (err: unknown) => {
          if (err instanceof UpstreamError) failed.set(s, err);
          return NO_TOOLS;
        },
      ),
    ),
  );
  const pins = await ctx.state.pinnedDigests(loaded.agent.catalogue);
  // The gateway asks on every call, and the answer is made of these very objects alone: made from the same ones
  // (the pool, each server's listing, the pins, all kept while nothing changed), it is the same answer.
  const last = failed.size === 0 ? lastMapped.get(loaded) : undefined;
  if (last && last.live === live && last.pins === pins && last.listed.every((found, i) => found === listed[i])) return last.mapped;
  const out: Mapped = { tools: new Map(), unlisted: new Map() };
  for (const tool of tools) {
    const target = tool.upstream as { server: string; tool: string };
    if (out.tools.has(tool.name) || out.unlisted.has(tool.name)) continue;
    const failure = failed.get(target.server);
    if (failure) out.unlisted.set(tool.name, failure);
    const upstream = listed[servers.indexOf(target.server)]?.find((u) => u.name === target.tool);
    if (!upstream) continue;
    const pinned = pins.get(tool.name);
    const authorized = pinned !== undefined && pinned !== null && pinned === listedDigest(target.server, upstream);
    out.tools.set(tool.name, { tool, upstream, authorized });
  }
  if (failed.size === 0) lastMapped.set(loaded, { live, listed, pins, mapped: out });
  return out;
}

const NO_TOOLS: Tool[] = [];

/** The catalogue tools of a loaded agent that name an upstream, and those upstreams, once per loaded agent. */
const upstreamTools = new WeakMap<LoadedAgent, { tools: CatalogueTool[]; servers: string[] }>();

function upstreamToolsOf(loaded: LoadedAgent): { tools: CatalogueTool[]; servers: string[] } {
  let found = upstreamTools.get(loaded);
  if (!found) {
    const tools = loaded.parts.catalogue.tools.filter((t) => t.upstream !== undefined);
    found = { tools, servers: [...new Set(tools.map((t) => t.upstream?.server as string))] };
    upstreamTools.set(loaded, found);
  }
  return found;
}

/** The last answer mappedTools made for a loaded agent (none when a server failed), and what it was made from. */
const lastMapped = new WeakMap<LoadedAgent, { live: UpstreamPool; listed: Tool[][]; pins: Map<string, string | null>; mapped: Mapped }>();

/**
 * The tools/list answer: each authorized tool under its catalogue name with the upstream's definition as pinned
 * (state/tools/model.ts); a tool whose definition is not the authorized one is withheld.
 */
export function offeredTools(mapped: Mapped): Tool[] {
  return [...mapped.tools.values()]
    .filter((t) => t.authorized)
    .map(({ tool, upstream }) => ({
      name: tool.name,
      ...(upstream.title !== undefined ? { title: upstream.title } : {}),
      ...(upstream.description !== undefined ? { description: upstream.description } : {}),
      inputSchema: upstream.inputSchema,
      ...(upstream.outputSchema !== undefined ? { outputSchema: upstream.outputSchema } : {}),
      ...(upstream.annotations !== undefined ? { annotations: upstream.annotations } : {}),
    }));
}

/**
 * One client's offer: `list` answers its tools/list, and from its first list on, `announce` runs whenever what
 * it would be offered (re-read from listings made already) differs from what it was last told; `stop` ends the
 * watching (offer-watch.ts).
 *
 * @example
 * const offer = offerTools(ctx, (listing) => mappedTools(ctx, agent, upstreams, listing), () => server.sendToolListChanged());
 * server.setRequestHandler(ListToolsRequestSchema, () => offer.list());
 */
export function offerTools(
  ctx: AppContext,
  mapped: (listing: Listing) => Promise<Mapped>,
  announce: () => Promise<void>,
): { list: () => Promise<{ tools: Tool[] }>; stop: () => void } {
  // What the client was last told it may call (its last tools/list, or the list a notification announced); a
  // change of it is announced. Nothing is announced before a first list.
  let told: string | undefined;
  let checking: Promise<void> | undefined;
  let again = false;
  const recheck = async () => {
    do {
      again = false;
      const now = JSON.stringify(offeredTools(await mapped('listed').catch(() => NOTHING_MAPPED)));
      if (told !== undefined && now !== told) {
        told = now;
        await announce().catch(() => undefined);
      }
    } while (again);
  };
  const stop = watchOffers(ctx, () => {
    if (told === undefined) return;
    if (checking) {
      again = true;
      return;
    }
    checking = recheck().finally(() => {
      checking = undefined;
    });
  });
  return {
    async list() {
      const tools = offeredTools(await mapped('fresh'));
      told = JSON.stringify(tools);
      return { tools };
    },
    stop,
  };
}
