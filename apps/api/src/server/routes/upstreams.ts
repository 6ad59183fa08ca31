// Routes: the upstream MCP servers of mcp/servers.yaml with the tools each was last seen offering, which
// catalogue tools map to each and whether their definitions are authorized (docs/mcp.md, "Pinned tool
// definitions"); and a refresh that asks every upstream now, so an owner or admin can review a definition
// before any agent has listed it.
import { createRoute, z } from '@hono/zod-openapi';
import { type CatalogueTool, documentKindOf, readUpstreams, UPSTREAMS_ID } from '@tollgate/engine';
import type { AppContext } from '../context.ts';
import { UpstreamError, upstreamPoolOf } from '../mcp/upstream-pool.ts';
import { router } from '../openapi.ts';
import { readStoredJson } from '../state/stored-json.ts';
import { type DefinitionState, definitionState, readCatalogueTools } from '../state/tools/model.ts';
import { errorResponse, jsonResponse, members, storeError } from './route-kit.ts';

/** How long a refresh waits for each upstream to start and list its tools. */
const REFRESH_TIMEOUT_MS = 10_000;

const MappedBySchema = z
  .object({
    catalogue: z.string(),
    tool: z.string().openapi({ description: 'The catalogue tool, the name the agent sees.' }),
    state: z.enum(['authorized', 'changed', 'unseen']),
  })
  .openapi('UpstreamToolMapping');

const UpstreamToolSchema = z
  .object({
    name: z.string(),
    digest: z.string(),
    definition: z.record(z.string(), z.unknown()),
    seen_at: z.iso.datetime({ offset: true }),
    mapped_by: z.array(MappedBySchema).openapi({ description: 'The running catalogues’ tools that map to this one.' }),
  })
  .openapi('UpstreamTool');

const ServerSchema = z
  .object({
    name: z.string(),
    transport: z.enum(['stdio', 'http']),
    tools: z.array(UpstreamToolSchema).openapi({ description: 'The tools the server was last seen offering, by name.' }),
    unmapped: z.array(MappedBySchema).openapi({ description: 'Catalogue tools that map to a tool this server was never seen offering.' }),
    error: z
      .object({ code: z.string(), message: z.string() })
      .optional()
      .openapi({ description: 'Set by a refresh when the server could not be listed.' }),
  })
  .openapi('UpstreamServer');

const UpstreamsSchema = z
  .object({
    sequence: z.number().int().nullable().openapi({ description: 'The running mcp/servers.yaml version, null when none runs.' }),
    servers: z.array(ServerSchema),
  })
  .openapi('Upstreams');

const errors = {
  401: errorResponse('A missing or unknown key'),
  403: errorResponse('A lacking role'),
};

const listRoute = createRoute({
  method: 'get',
  path: '/upstreams',
  operationId: 'listUpstreams',
  tags: ['mcp'],
  summary: 'The upstream MCP servers, the tools each was last seen offering and the catalogue tools mapped to them (members)',
  middleware: [members()] as const,
  responses: { 200: jsonResponse(UpstreamsSchema, 'The running upstreams'), ...errors },
});

const refreshRoute = createRoute({
  method: 'post',
  path: '/upstreams/refresh',
  operationId: 'refreshUpstreams',
  tags: ['mcp'],
  summary: 'Asks every upstream for its tools now and records their definitions (owner or admin)',
  middleware: [members('owner', 'admin')] as const,
  responses: { 200: jsonResponse(UpstreamsSchema, 'The upstreams, each server as it answered'), ...errors },
});

interface Mapping {
  catalogue: string;
  tool: CatalogueTool;
  pinned: string | null | undefined;
}

/** Every running catalogue tool mapped to an upstream, by server and upstream tool. */
async function mappings(ctx: AppContext): Promise<Map<string, Mapping[]>> {
  const found = new Map<string, Mapping[]>();
  for (const id of await ctx.store.list().catch(storeError)) {
    if (documentKindOf(id) !== 'catalogue') continue;
    const doc = await ctx.store.get(id).catch(() => undefined);
    const tools = doc ? readCatalogueTools(id, doc.text) : undefined;
    if (!tools) continue;
    const authorized = await ctx.state.authorizationsOf(id);
    for (const tool of tools.values()) {
      if (!tool.upstream) continue;
      const key = `${tool.upstream.server}\u0000${tool.upstream.tool}`;
      const list = found.get(key) ?? [];
      list.push({ catalogue: id, tool, pinned: authorized.get(tool.name)?.upstream_digest });
      found.set(key, list);
    }
  }
  return found;
}

async function upstreamsJson(ctx: AppContext, failures: ReadonlyMap<string, UpstreamError> = new Map()) {
  const doc = await ctx.store.get(UPSTREAMS_ID).catch(storeError);
  const read = doc ? readUpstreams(doc.text) : undefined;
  const servers = read?.ok ? read.upstreams.servers : [];
  const seen = await ctx.state.seenDefinitions();
  const mapped = await mappings(ctx);
  const mappedBy = (server: string, tool: string, state: (m: Mapping) => DefinitionState) =>
    (mapped.get(`${server}\u0000${tool}`) ?? []).map((m) => ({ catalogue: m.catalogue, tool: m.tool.name, state: state(m) }));
  return {
    sequence: doc?.sequence ?? null,
    servers: servers.map((server) => {
      const tools = [...(seen.get(server.name)?.values() ?? [])];
      const offered = new Set(tools.map((t) => t.tool));
      const unmapped = [...mapped.entries()]
        .filter(([key]) => key.startsWith(`${server.name}\u0000`) && !offered.has(key.slice(server.name.length + 1)))
        .flatMap(([, list]) => list.map((m) => ({ catalogue: m.catalogue, tool: m.tool.name, state: 'unseen' as const })));
      const failure = failures.get(server.name);
      return {
        name: server.name,
        transport: server.transport,
        tools: tools.map((t) => ({
          name: t.tool,
          digest: t.digest,
          definition: readStoredJson(t.definition) as Record<string, unknown>,
          seen_at: t.seen_at,
          mapped_by: mappedBy(server.name, t.tool, (m) => definitionState(m.pinned, t)),
        })),
        unmapped,
        ...(failure ? { error: { code: failure.code, message: failure.message } } : {}),
      };
    }),
  };
}

/** The upstream routes: list (members) and refresh (owners and admins). */
export function upstreamRoutes() {
  const app = router();

  app.openapi(listRoute, async (c) => c.json(await upstreamsJson(c.get('ctx')), 200));

  app.openapi(refreshRoute, async (c) => {
    const ctx = c.get('ctx');
    const pool = await upstreamPoolOf(ctx);
    const failures = new Map<string, UpstreamError>();
    // Every server at once; each listing records its definitions (upstreamPoolOf), a failure is reported.
    await Promise.all(
      pool.servers.map((s) =>
        // The refresh's own bound, whatever bound the gateway that made the connection has (docs/mcp.md).
        pool.listTools(s.name, { fresh: true, timeoutMs: REFRESH_TIMEOUT_MS }).catch((err: unknown) => {
          failures.set(s.name, err instanceof UpstreamError ? err : new UpstreamError('UPSTREAM_FAILED', String(err)));
        }),
      ),
    );
    return c.json(await upstreamsJson(ctx, failures), 200);
  });

  return app;
}
