// Tool authorizations and pinned upstream definitions on PostgreSQL (docs/catalogue.md, docs/mcp.md): the SQL on
// a pool shared by several nodes, the rules in model.ts. The authorization generation moves by trigger on every
// authorization from any node and is read at most once per turn of the event loop; pins are cached while it
// stands still.
import type { Catalogue, ToolBinding } from '@tollgate/engine';
import type pg from 'pg';
import { authorizationBody, TOOL_AUTHORIZED } from '../../record/entries.ts';
import type { PostgresRecord } from '../../record/postgres.ts';
import { placeholders, type Queryable, rowsOf, type TurnRead } from '../postgres-query.ts';
import {
  AUTHORIZATION_COLUMNS,
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

const UPSERT_AUTHORIZATION = `INSERT INTO tool_authorizations (${AUTHORIZATION_COLUMNS.join(', ')}) VALUES (${placeholders(AUTHORIZATION_COLUMNS.length)})
  ON CONFLICT (catalogue, tool) DO UPDATE SET digest = excluded.digest, binding = excluded.binding,
    authorized_by = excluded.authorized_by, authorized_by_name = excluded.authorized_by_name, authorized_at = excluded.authorized_at,
    upstream_digest = excluded.upstream_digest, upstream_definition = excluded.upstream_definition`;

const SEEN_COLUMNS = 'server, tool, digest, definition, seen_at';

async function upsertAuthorization(on: Queryable, row: AuthorizationRow): Promise<void> {
  await rowsOf(
    on,
    UPSERT_AUTHORIZATION,
    AUTHORIZATION_COLUMNS.map((c) => row[c]),
  );
}

export class PostgresToolState {
  private readonly pool: pg.Pool;
  private readonly generation: TurnRead;
  private readonly pins = new GenerationCache<Promise<Map<string, string | null>>>();

  /**
   * `generation`: the authorization generation, read at most once per turn (TurnGenerations); `record`: the node's
   * record, each authorization chained in its transaction (docs/audit.md).
   */
  constructor(
    pool: pg.Pool,
    generation: TurnRead,
    private readonly record: PostgresRecord,
  ) {
    this.pool = pool;
    this.generation = generation;
  }

  authorizationGeneration(): Promise<number> {
    return this.generation.read();
  }

  async authorizationsOf(catalogue: string): Promise<Map<string, AuthorizationRow>> {
    const rows = await rowsOf<AuthorizationRow>(
      this.pool,
      `SELECT ${AUTHORIZATION_COLUMNS.join(', ')} FROM tool_authorizations WHERE catalogue = $1`,
      [catalogue],
    );
    return byTool(rows);
  }

  async authorizeBinding(
    catalogue: string,
    binding: ToolBinding,
    by: Authorizer,
    now: Date,
    pin?: DefinitionPin,
  ): Promise<AuthorizationRow> {
    const row = authorizationRow(catalogue, binding, by, now, pin);
    await this.record.inChainedTransaction(async (client, append) => {
      await upsertAuthorization(client, row);
      append(TOOL_AUTHORIZED, row.authorized_at, null, authorizationBody(row));
    });
    this.generation.stale();
    return row;
  }

  async authorizeBindings(bindings: readonly { catalogue: string; binding: ToolBinding }[], by: Authorizer, now: Date): Promise<void> {
    await this.record.inChainedTransaction(async (client, append) => {
      for (const b of bindings) {
        const row = authorizationRow(b.catalogue, b.binding, by, now);
        await upsertAuthorization(client, row);
        append(TOOL_AUTHORIZED, row.authorized_at, null, authorizationBody(row));
      }
    });
    this.generation.stale();
  }

  /** Whether the running bindings were adopted; with `mark`, one insert marks them, so of racing nodes one adopts. */
  async bindingsAdopted(mark?: Date): Promise<boolean> {
    if (!mark) return (await rowsOf(this.pool, 'SELECT 1 FROM tool_authorizations_adopted WHERE id = 1')).length > 0;
    const inserted = await rowsOf(
      this.pool,
      'INSERT INTO tool_authorizations_adopted (id, adopted_at) VALUES (1, $1) ON CONFLICT DO NOTHING RETURNING id',
      [mark.toISOString()],
    );
    return inserted.length === 0;
  }

  async unauthorizedTools(catalogueId: string, catalogue: Catalogue): Promise<string[]> {
    return unauthorizedOf(catalogue, await this.authorizationsOf(catalogueId));
  }

  /** Records the definitions a server's listing gave, writing only those new or changed since last seen. */
  async recordListed(server: string, tools: readonly ListedTool[], now: Date): Promise<void> {
    const known = new Map(
      (
        await rowsOf<{ tool: string; digest: string }>(this.pool, 'SELECT tool, digest FROM upstream_tools WHERE server = $1', [server])
      ).map((r) => [r.tool, r.digest]),
    );
    const changed = changedDefinitions(server, tools, known);
    if (changed.length === 0) return;
    const at = now.toISOString();
    await rowsOf(
      this.pool,
      `INSERT INTO upstream_tools (${SEEN_COLUMNS}) VALUES ${changed.map((_, i) => `(${placeholders(5, i * 5 + 1)})`).join(', ')}
       ON CONFLICT (server, tool) DO UPDATE SET digest = excluded.digest, definition = excluded.definition, seen_at = excluded.seen_at`,
      changed.flatMap((t) => [server, t.tool, t.digest, t.definition, at]),
    );
  }

  /** Every upstream tool's latest seen definition, by server then tool name. */
  async seenDefinitions(): Promise<Map<string, Map<string, SeenDefinition>>> {
    const rows = await rowsOf<SeenDefinition>(this.pool, `SELECT ${SEEN_COLUMNS} FROM upstream_tools ORDER BY server, tool`);
    return byServer(rows);
  }

  async seenDefinition(server: string, tool: string): Promise<SeenDefinition | undefined> {
    const [row] = await rowsOf<SeenDefinition>(this.pool, `SELECT ${SEEN_COLUMNS} FROM upstream_tools WHERE server = $1 AND tool = $2`, [
      server,
      tool,
    ]);
    return row;
  }

  /** The pinned definition digest of each authorized tool of `catalogue`, kept until the next authorization anywhere. */
  async pinnedDigests(catalogue: string): Promise<Map<string, string | null>> {
    const generation = await this.generation.read();
    return this.pins.get(generation, catalogue, () => {
      const loading = this.authorizationsOf(catalogue).then(pinsOf);
      // A failed read is not kept: the next call reads again.
      loading.catch(() => this.pins.forget(catalogue, loading));
      return loading;
    });
  }
}
