// Tool authorizations and pinned upstream definitions in SQLite (docs/catalogue.md, docs/mcp.md): the SQL on
// the one better-sqlite3 connection, the rules in model.ts. The authorization generation moves by trigger on
// every authorization from any connection (a `tollgate mcp` process beside `tollgate serve`) and is read at most
// once per turn of the event loop; pins are cached while it stands still.
import type { Catalogue, ToolBinding } from '@tollgate/engine';
import type { Db } from '../db.ts';
import { turnRead } from '../sqlite-turn-read.ts';
import {
  type AuthorizationRow,
  type Authorizer,
  authorizationRow,
  byServer,
  byTool,
  changedDefinitions,
  type DefinitionPin,
  GenerationCache,
  type ListedTool,
  pinsOf,
  type SeenDefinition,
  unauthorizedOf,
} from './model.ts';

/** The authorizations' generation: read at most once per turn (sqlite-turn-read.ts), and again after this process authorizes. */
export function authorizationGeneration(db: Db): number {
  return turnRead(db).read('tools');
}

/** The recorded authorizations of one catalogue document's tools, by tool name. */
export function authorizationsOf(db: Db, catalogue: string): Map<string, AuthorizationRow> {
  return byTool(db.prepare('SELECT * FROM tool_authorizations WHERE catalogue = ?').all(catalogue) as AuthorizationRow[]);
}

function upsertAuthorization(db: Db, row: AuthorizationRow): void {
  db.prepare(
    `INSERT INTO tool_authorizations (catalogue, tool, digest, binding, authorized_by, authorized_by_name, authorized_at, upstream_digest, upstream_definition)
     VALUES (@catalogue, @tool, @digest, @binding, @authorized_by, @authorized_by_name, @authorized_at, @upstream_digest, @upstream_definition)
     ON CONFLICT (catalogue, tool) DO UPDATE SET digest = excluded.digest, binding = excluded.binding,
       authorized_by = excluded.authorized_by, authorized_by_name = excluded.authorized_by_name, authorized_at = excluded.authorized_at,
       upstream_digest = excluded.upstream_digest, upstream_definition = excluded.upstream_definition`,
  ).run(row);
  turnRead(db).stale();
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
  upsertAuthorization(db, row);
  return row;
}

/** Authorizes bindings in one transaction (the demo seed, the first run's adoption); answers the rows written. */
export function authorizeBindings(
  db: Db,
  bindings: readonly { catalogue: string; binding: ToolBinding }[],
  by: Authorizer,
  now: Date,
): AuthorizationRow[] {
  return db.transaction(() =>
    bindings.map((b) => {
      const row = authorizationRow(b.catalogue, b.binding, by, now);
      upsertAuthorization(db, row);
      return row;
    }),
  )();
}

/** Whether the running bindings were adopted; with `mark`, marks them adopted (an insert that keeps the first mark). */
export function bindingsAdopted(db: Db, mark?: Date): boolean {
  const adopted = db.prepare('SELECT 1 FROM tool_authorizations_adopted WHERE id = 1').get() !== undefined;
  if (!adopted && mark) {
    db.prepare('INSERT INTO tool_authorizations_adopted (id, adopted_at) VALUES (1, ?) ON CONFLICT DO NOTHING').run(mark.toISOString());
  }
  return adopted;
}

/** The catalogue's tools whose current binding is not the authorized one (new, or changed since). */
export function unauthorizedTools(db: Db, catalogueId: string, catalogue: Catalogue): string[] {
  return unauthorizedOf(catalogue, authorizationsOf(db, catalogueId));
}

/** Records the definitions a server's listing gave, writing only those new or changed since last seen. */
export function recordListed(db: Db, server: string, tools: readonly ListedTool[], now: Date): void {
  const known = new Map(
    (db.prepare('SELECT tool, digest FROM upstream_tools WHERE server = ?').all(server) as { tool: string; digest: string }[]).map((r) => [
      r.tool,
      r.digest,
    ]),
  );
  const changed = changedDefinitions(server, tools, known);
  if (changed.length === 0) return;
  const write = db.prepare(
    `INSERT INTO upstream_tools (server, tool, digest, definition, seen_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (server, tool) DO UPDATE SET digest = excluded.digest, definition = excluded.definition, seen_at = excluded.seen_at`,
  );
  db.transaction(() => {
    for (const t of changed) write.run(server, t.tool, t.digest, t.definition, now.toISOString());
  })();
}

/** Every upstream tool's latest seen definition, by `server` then tool name. */
export function seenDefinitions(db: Db): Map<string, Map<string, SeenDefinition>> {
  return byServer(db.prepare('SELECT * FROM upstream_tools ORDER BY server, tool').all() as SeenDefinition[]);
}

/** The latest definition `server` was seen giving for `tool`, if any. */
export function seenDefinition(db: Db, server: string, tool: string): SeenDefinition | undefined {
  return db.prepare('SELECT * FROM upstream_tools WHERE server = ? AND tool = ?').get(server, tool) as SeenDefinition | undefined;
}

const pinCaches = new WeakMap<Db, GenerationCache<Map<string, string | null>>>();

/**
 * The pinned definition digest of each authorized tool of `catalogue` (null where none is pinned), kept
 * until the next authorization from any process: the gateway asks on every call.
 */
export function pinnedDigests(db: Db, catalogue: string): Map<string, string | null> {
  const generation = authorizationGeneration(db);
  let cache = pinCaches.get(db);
  if (!cache) {
    cache = new GenerationCache();
    pinCaches.set(db, cache);
  }
  return cache.get(generation, catalogue, () => pinsOf(authorizationsOf(db, catalogue)));
}
