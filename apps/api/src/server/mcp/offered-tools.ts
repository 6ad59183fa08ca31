// What a gateway offers its client, from its catalogue's mapped tools (docs/mcp.md, "Pinned tool definitions"),
// and what an upstream's failure tells the agent beside its code.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { CatalogueTool } from '@tollgate/engine';
import type { UpstreamError } from './upstream-failure.ts';

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
 * The tools/list answer: each authorized tool under its catalogue name with the upstream's definition as pinned
 * (state/upstream-definitions.ts); a tool whose definition is not the authorized one is withheld.
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

/** An error result's details for an upstream's failure: the JSON-RPC error or HTTP status it answered with. */
export function upstreamDetails(err: UpstreamError): { upstream_error?: UpstreamError['upstream'] } {
  return err.upstream ? { upstream_error: err.upstream } : {};
}
