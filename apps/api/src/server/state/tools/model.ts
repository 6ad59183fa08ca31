// Tool authorizations and pinned upstream definitions, as both state stores keep them (docs/catalogue.md, "The
// authorized binding"; docs/mcp.md, "Pinned tool definitions"). A tool's binding is what decides how the gate
// reads its calls: its name, action and amount mapping. The workspace records, per catalogue document and tool,
// the binding an owner or admin authorized (its digest, by whom, when), and for a tool mapped to an upstream the
// definition the authorizer reviewed; the gate runs a tool's calls only while its current binding has that
// digest, and the MCP gateway offers it only while the upstream's latest definition is the pinned one. Pure (the
// digests are canonical-digest.ts's), so the SQLite (sqlite.ts) and PostgreSQL (postgres.ts) stores read and
// write them alike.
import { type Catalogue, type CatalogueTool, canonicalJson, catalogueFormatOf, readCatalogue, type ToolBinding } from '@tollgate/engine';
import { canonicalDigest } from './canonical-digest.ts';

/** Who authorized a binding: a member, or `system` for the bindings present when authorizations began. */
export interface Authorizer {
  id: string;
  name: string;
}

export const SYSTEM_AUTHORIZER: Authorizer = { id: 'system', name: 'system' };

export interface AuthorizationRow {
  catalogue: string;
  tool: string;
  digest: string;
  /** The binding's canonical JSON. */
  binding: string;
  authorized_by: string;
  authorized_by_name: string;
  authorized_at: string;
  /** For a tool mapped to an upstream: the digest of the upstream definition authorized with the binding. */
  upstream_digest: string | null;
  /** That definition's canonical JSON. */
  upstream_definition: string | null;
}

/** The upstream definition an authorization pins (docs/mcp.md, "Pinned tool definitions"). */
export interface DefinitionPin {
  digest: string;
  /** The definition's canonical JSON. */
  definition: string;
}

/** The columns of a tool authorization's row, in the table's order (both state stores and the workspace transfer). */
export const AUTHORIZATION_COLUMNS = [
  'catalogue',
  'tool',
  'digest',
  'binding',
  'authorized_by',
  'authorized_by_name',
  'authorized_at',
  'upstream_digest',
  'upstream_definition',
] as const satisfies readonly (keyof AuthorizationRow)[];

/**
 * A tool's binding: `{name, action, amount?: {pointer, currency, currency_pointer?}}`, the policy@1 tool
 * binding (docs/policy.md). Declarations that never change how an amount or action is read (kind, checks,
 * confirmations, order rules) are not part of it.
 *
 * @example
 * bindingOf({ name: 'issue_refund', action: 'refund.issue', kind: 'write', amount: { pointer: '/amount', currency: 'USD' } })
 * // { name: 'issue_refund', action: 'refund.issue', amount: { pointer: '/amount', currency: 'USD' } }
 */
export function bindingOf(tool: CatalogueTool): ToolBinding {
  return tool.amount === undefined
    ? { name: tool.name, action: tool.action }
    : { name: tool.name, action: tool.action, amount: tool.amount };
}

/** The sha-256 (hex) of a binding's canonical JSON: equal bindings, however written, have one digest. */
export function bindingDigest(binding: ToolBinding): string {
  return canonicalDigest(binding);
}

/** The catalogue's tools by name, the first of a name (as the gate finds them). */
export function toolsByName(catalogue: Catalogue): Map<string, CatalogueTool> {
  const tools = new Map<string, CatalogueTool>();
  for (const tool of catalogue.tools) if (!tools.has(tool.name)) tools.set(tool.name, tool);
  return tools;
}

/** The catalogue text's tools, or undefined when it does not load. */
export function readCatalogueTools(id: string, text: string): Map<string, CatalogueTool> | undefined {
  const read = readCatalogue(text, catalogueFormatOf(id) ?? 'yaml');
  return read.ok ? toolsByName(read.catalogue) : undefined;
}

/**
 * The tools of `after` whose binding differs from their binding in `before`, or, for a tool `before` does
 * not hold, from the binding authorized for it (so removing a tool and adding it back rebound is a change
 * too). A tool never bound before is not a change: it has no authorized binding yet, and runs no call
 * until it has one; a removed tool runs no call at all.
 */
export function changedBindings(
  before: ReadonlyMap<string, CatalogueTool>,
  after: ReadonlyMap<string, CatalogueTool>,
  authorized: ReadonlyMap<string, AuthorizationRow>,
): string[] {
  const changed: string[] = [];
  for (const [name, tool] of after) {
    const was = before.get(name);
    const wasDigest = was ? bindingDigest(bindingOf(was)) : authorized.get(name)?.digest;
    if (wasDigest !== undefined && wasDigest !== bindingDigest(bindingOf(tool))) changed.push(name);
  }
  return changed;
}

/** The row that records `binding` as authorized by `by` at `now`, with the upstream definition it pins, if any. */
export function authorizationRow(
  catalogue: string,
  binding: ToolBinding,
  by: Authorizer,
  now: Date,
  pin?: DefinitionPin,
): AuthorizationRow {
  return {
    catalogue,
    tool: binding.name,
    digest: bindingDigest(binding),
    binding: canonicalJson(binding),
    authorized_by: by.id,
    authorized_by_name: by.name,
    authorized_at: now.toISOString(),
    upstream_digest: pin?.digest ?? null,
    upstream_definition: pin?.definition ?? null,
  };
}

/** One catalogue's authorization rows by tool name. */
export function byTool(rows: readonly AuthorizationRow[]): Map<string, AuthorizationRow> {
  return new Map(rows.map((r) => [r.tool, r]));
}

/** The catalogue's tools whose current binding is not the authorized one (new, or changed since). */
export function unauthorizedOf(catalogue: Catalogue, authorized: ReadonlyMap<string, AuthorizationRow>): string[] {
  const names: string[] = [];
  for (const [name, tool] of toolsByName(catalogue)) {
    if (authorized.get(name)?.digest !== bindingDigest(bindingOf(tool))) names.push(name);
  }
  return names;
}

/** The pinned definition digest of each authorized tool (null where none is pinned). */
export function pinsOf(authorized: ReadonlyMap<string, AuthorizationRow>): Map<string, string | null> {
  return new Map([...authorized].map(([tool, row]) => [tool, row.upstream_digest]));
}

/**
 * Values per catalogue kept while the authorization generation stands still: the pins, which the gateway asks
 * for on every call, are read again only after an authorization from any process or node.
 */
export class GenerationCache<T> {
  private generation = -1;
  private readonly byCatalogue = new Map<string, T>();

  /** The value kept for `catalogue` at `generation`, or `load()`'s, kept until the generation moves. */
  get(generation: number, catalogue: string, load: () => T): T {
    if (generation !== this.generation) {
      this.generation = generation;
      this.byCatalogue.clear();
    }
    let value = this.byCatalogue.get(catalogue);
    if (value === undefined) {
      value = load();
      this.byCatalogue.set(catalogue, value);
    }
    return value;
  }

  /** Forgets `value` (a read that failed), unless another has replaced it since. */
  forget(catalogue: string, value: T): void {
    if (this.byCatalogue.get(catalogue) === value) this.byCatalogue.delete(catalogue);
  }
}

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
  return canonicalDigest({ server, definition });
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

/** A listed tool's definition as it is written: by tool name, with its digest and canonical JSON. */
export interface ListedDefinition {
  tool: string;
  digest: string;
  /** The definition's canonical JSON. */
  definition: string;
}

/**
 * The definitions of a server's listing that are new or changed since last seen (`known`: the digests seen
 * last, by tool name). A listing naming a tool twice keeps its last changed definition, as one write after
 * another would.
 */
export function changedDefinitions(server: string, tools: readonly ListedTool[], known: ReadonlyMap<string, string>): ListedDefinition[] {
  const changed = new Map<string, ListedDefinition>();
  for (const listed of tools) {
    const definition = definitionOf(listed);
    const digest = definitionDigest(server, definition);
    if (known.get(listed.name) !== digest) changed.set(listed.name, { tool: listed.name, digest, definition: canonicalJson(definition) });
  }
  return [...changed.values()];
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

/**
 * A mapped tool's state: `authorized` while the definition seen last is the pinned one, `changed` when
 * another was seen (or none is pinned), `unseen` when no gateway has listed the tool yet.
 */
export function definitionState(pinned: string | null | undefined, seen: SeenDefinition | undefined): DefinitionState {
  if (seen === undefined) return 'unseen';
  return pinned === seen.digest ? 'authorized' : 'changed';
}
