// Pinned tool definitions (docs/mcp.md, "Pinned tool definitions"). An upstream can change a tool's
// description or schemas under the agent's feet; the workspace keeps the latest definition each upstream
// tool was seen with (by any gateway, or a refresh), and the authorization of a catalogue tool that maps to
// an upstream records the definition the authorizer reviewed. A tool whose upstream now gives another
// definition is withheld and its calls denied until an owner or admin authorizes the new one.
import { createHash } from 'node:crypto';
import { canonicalJson } from '@tollgate/engine';
import type { Db } from './db.ts';
import { authorizationGeneration, authorizationsOf } from './tool-bindings.ts';

/** What an upstream says of a tool, as the agent is shown it: the parts a rug pull would change. */
export interface ToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
}

/** An upstream tool as the SDK's client lists it (only the members a definition keeps are read). */
export interface ListedTool {
  name: string;
  title?: string | undefined;
  description?: string | undefined;
  inputSchema: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
}

export interface SeenDefinition {
  server: string;
  tool: string;
  digest: string;
  /** The definition's canonical JSON. */
  definition: string;
  /** When the upstream was first seen giving this definition. */
  seen_at: string;
}

/** Whether a mapped tool's last seen definition is the one authorized, another, or not seen by a gateway yet. */
export type DefinitionState = 'authorized' | 'changed' | 'unseen';

/**
 * The definition a listed tool is pinned by: its name, title, description, schemas and annotations.
 *
 * @example
 * definitionOf({ name: 'refund', description: 'Refunds an order.', inputSchema: { type: 'object' }, _meta: {} })
 * // { name: 'refund', description: 'Refunds an order.', inputSchema: { type: 'object' } }
 */
export function definitionOf(tool: ListedTool): ToolDefinition {
  const definition: ToolDefinition = { name: tool.name, inputSchema: tool.inputSchema };
  if (tool.title !== undefined) definition.title = tool.title;
  if (tool.description !== undefined) definition.description = tool.description;
  if (tool.outputSchema !== undefined) definition.outputSchema = tool.outputSchema;
  if (tool.annotations !== undefined) definition.annotations = tool.annotations;
  return definition;
}

/**
 * The sha-256 (hex) of `{server, definition}` as canonical JSON: the same tool of another server, or the
 * same server's tool described otherwise, has another digest.
 */
export function definitionDigest(server: string, definition: ToolDefinition): string {
  return createHash('sha256').update(canonicalJson({ server, definition }), 'utf8').digest('hex');
}

const listedDigests = new WeakMap<ListedTool, string>();

/** definitionDigest of a listed tool, computed once per listing's object (the gateway asks on every call). */
export function listedDigest(server: string, tool: ListedTool): string {
  let digest = listedDigests.get(tool);
  if (digest === undefined) {
    digest = definitionDigest(server, definitionOf(tool));
    listedDigests.set(tool, digest);
  }
  return digest;
}

/** Records the definitions a server's listing gave, writing only those new or changed since last seen. */
export function recordListed(db: Db, server: string, tools: readonly ListedTool[], now: Date): void {
  const known = new Map(
    (db.prepare('SELECT tool, digest FROM upstream_tools WHERE server = ?').all(server) as { tool: string; digest: string }[]).map((r) => [
      r.tool,
      r.digest,
    ]),
  );
  const write = db.prepare(
    `INSERT INTO upstream_tools (server, tool, digest, definition, seen_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (server, tool) DO UPDATE SET digest = excluded.digest, definition = excluded.definition, seen_at = excluded.seen_at`,
  );
  const changed = tools
    .map((t) => ({ tool: t.name, definition: definitionOf(t) }))
    .map((t) => ({ ...t, digest: definitionDigest(server, t.definition) }))
    .filter((t) => known.get(t.tool) !== t.digest);
  if (changed.length === 0) return;
  db.transaction(() => {
    for (const t of changed) write.run(server, t.tool, t.digest, canonicalJson(t.definition), now.toISOString());
  })();
}

/** Every upstream tool's latest seen definition, by `server` then tool name. */
export function seenDefinitions(db: Db): Map<string, Map<string, SeenDefinition>> {
  return byServer(db.prepare('SELECT * FROM upstream_tools ORDER BY server, tool').all() as SeenDefinition[]);
}

/** Seen definitions grouped by `server`, then tool name, in the rows' order. */
export function byServer(rows: readonly SeenDefinition[]): Map<string, Map<string, SeenDefinition>> {
  const grouped = new Map<string, Map<string, SeenDefinition>>();
  for (const row of rows) {
    let tools = grouped.get(row.server);
    if (!tools) {
      tools = new Map();
      grouped.set(row.server, tools);
    }
    tools.set(row.tool, row);
  }
  return grouped;
}

/** The latest definition `server` was seen giving for `tool`, if any. */
export function seenDefinition(db: Db, server: string, tool: string): SeenDefinition | undefined {
  return db.prepare('SELECT * FROM upstream_tools WHERE server = ? AND tool = ?').get(server, tool) as SeenDefinition | undefined;
}

/**
 * A mapped tool's state: `authorized` while the definition seen last is the pinned one, `changed` when
 * another was seen (or none is pinned), `unseen` when no gateway has listed the tool yet.
 */
export function definitionState(pinned: string | null | undefined, seen: SeenDefinition | undefined): DefinitionState {
  if (seen === undefined) return 'unseen';
  return pinned === seen.digest ? 'authorized' : 'changed';
}

const pinCaches = new WeakMap<Db, { generation: number; byCatalogue: Map<string, Map<string, string | null>> }>();

/**
 * The pinned definition digest of each authorized tool of `catalogue` (null where none is pinned), kept
 * until the next authorization from any process: the gateway asks on every call.
 */
export function pinnedDigests(db: Db, catalogue: string): Map<string, string | null> {
  const generation = authorizationGeneration(db);
  let cache = pinCaches.get(db);
  if (!cache || cache.generation !== generation) {
    cache = { generation, byCatalogue: new Map() };
    pinCaches.set(db, cache);
  }
  let pins = cache.byCatalogue.get(catalogue);
  if (!pins) {
    pins = new Map([...authorizationsOf(db, catalogue)].map(([tool, row]) => [tool, row.upstream_digest]));
    cache.byCatalogue.set(catalogue, pins);
  }
  return pins;
}
