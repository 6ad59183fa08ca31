// Tool bindings and their authorizations (docs/catalogue.md, "The authorized binding"). A tool's binding is
// what decides how the gate reads its calls: its name, action and amount mapping. The workspace records,
// per catalogue document and tool, the binding an owner or admin authorized (its digest, by whom, when);
// the gate runs a tool's calls only while its current binding has that digest.
import { createHash } from 'node:crypto';
import { type Catalogue, type CatalogueTool, canonicalJson, catalogueFormatOf, readCatalogue, type ToolBinding } from '@tollgate/engine';
import type { Db } from './db.ts';

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
  return createHash('sha256').update(canonicalJson(binding), 'utf8').digest('hex');
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

interface Generation {
  read: () => number;
  value: number;
  /** Whether `value` was read in this turn of the event loop. */
  fresh: boolean;
}

const generations = new WeakMap<Db, Generation>();

function generationOf(db: Db): Generation {
  let g = generations.get(db);
  if (!g) {
    const read = db.prepare('SELECT generation FROM tool_authorization_generation WHERE id = 1').pluck();
    g = { read: () => read.get() as number, value: -1, fresh: false };
    generations.set(db, g);
  }
  return g;
}

/**
 * The authorizations' generation, which a trigger moves on every authorization from any connection (a
 * `tollgate mcp` process beside `tollgate serve`): read at most once per turn of the event loop, as the key
 * cache reads its own (state/auth-cache.ts), and again after this process authorizes.
 */
export function authorizationGeneration(db: Db): number {
  const g = generationOf(db);
  if (!g.fresh) {
    g.value = g.read();
    g.fresh = true;
    setImmediate(() => {
      g.fresh = false;
    });
  }
  return g.value;
}

/** The recorded authorizations of one catalogue document's tools, by tool name. */
export function authorizationsOf(db: Db, catalogue: string): Map<string, AuthorizationRow> {
  const rows = db.prepare('SELECT * FROM tool_authorizations WHERE catalogue = ?').all(catalogue) as AuthorizationRow[];
  return new Map(rows.map((r) => [r.tool, r]));
}

/**
 * Records `binding` as the authorized binding of its tool in `catalogue`, replacing any earlier one, with
 * the upstream definition it pins for a tool mapped to an upstream (none otherwise).
 */
export function authorizeBinding(
  db: Db,
  catalogue: string,
  binding: ToolBinding,
  by: Authorizer,
  now: Date,
  pin?: DefinitionPin,
): AuthorizationRow {
  const row = authorizationRow(catalogue, binding, by, now, pin);
  db.prepare(
    `INSERT INTO tool_authorizations (catalogue, tool, digest, binding, authorized_by, authorized_by_name, authorized_at, upstream_digest, upstream_definition)
     VALUES (@catalogue, @tool, @digest, @binding, @authorized_by, @authorized_by_name, @authorized_at, @upstream_digest, @upstream_definition)
     ON CONFLICT (catalogue, tool) DO UPDATE SET digest = excluded.digest, binding = excluded.binding,
       authorized_by = excluded.authorized_by, authorized_by_name = excluded.authorized_by_name, authorized_at = excluded.authorized_at,
       upstream_digest = excluded.upstream_digest, upstream_definition = excluded.upstream_definition`,
  ).run(row);
  generationOf(db).fresh = false;
  return row;
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

/** The catalogue's tools whose current binding is not the authorized one (new, or changed since). */
export function unauthorizedTools(db: Db, catalogueId: string, catalogue: Catalogue): string[] {
  const authorized = authorizationsOf(db, catalogueId);
  const names: string[] = [];
  for (const [name, tool] of toolsByName(catalogue)) {
    if (authorized.get(name)?.digest !== bindingDigest(bindingOf(tool))) names.push(name);
  }
  return names;
}
