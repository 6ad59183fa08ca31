// The state a team needs to keep working when its workspace moves between a data folder's tollgate.db and
// PostgreSQL (`tollgate import`, `tollgate export`; docs/deploy.md, "Moving a workspace"): members with their
// signing keys (a removed member's row too; custodial keys sealed, so the secret moves with them) and the keys they
// hold themselves, api_keys (hashes, so every key keeps working, and its expiry and
// revocation, so a revoked key never comes back by moving), when each key was last used, the record of changes to
// members and keys (in its order), tool authorizations with their adoption mark, and the upstream definitions seen. The tables have the same columns on both sides (state/db.ts,
// state/postgres-migrations.ts), so rows are copied as they are. Decisions, approvals and trial counts stay behind.
import type pg from 'pg';
import type { Db } from '../state/db.ts';
import { CREDENTIAL_COLUMNS } from '../state/members/credential-model.ts';
import { AUTHORIZATION_COLUMNS } from '../state/tools/model.ts';

/** The tables carried, parents before the rows that name them (api_keys.member_id names members). */
export const CARRIED_TABLES = {
  members: ['id', 'name', 'role', 'public_key', 'private_key', 'signing', 'created_at', 'removed_at'],
  api_keys: [
    'id',
    'hash',
    'member_id',
    'agent',
    'grants',
    'created_at',
    'name',
    'hint',
    'created_by',
    'expires_at',
    'revoked_at',
    'revoked_by',
    'rotated_to',
  ],
  key_usage: ['key_id', 'last_used_at'],
  member_credentials: CREDENTIAL_COLUMNS,
  // Read in the order written and written in it, so the record keeps its order under new sequence numbers.
  identity_changes: ['at', 'actor', 'action', 'subject', 'details'],
  tool_authorizations: AUTHORIZATION_COLUMNS,
  tool_authorizations_adopted: ['id', 'adopted_at'],
  upstream_tools: ['server', 'tool', 'digest', 'definition', 'seen_at'],
} as const;

export type CarriedTable = keyof typeof CARRIED_TABLES;
export type CarriedState = Record<CarriedTable, Record<string, unknown>[]>;

const TABLES = Object.keys(CARRIED_TABLES) as CarriedTable[];

function selectOf(table: CarriedTable): string {
  return `SELECT ${CARRIED_TABLES[table].join(', ')} FROM ${table}${table === 'identity_changes' ? ' ORDER BY seq' : ''}`;
}

/** No rows: what a data folder without a tollgate.db carries. */
export function emptyState(): CarriedState {
  return Object.fromEntries(TABLES.map((t) => [t, []])) as unknown as CarriedState;
}

/** The rows of a tollgate.db. */
export function readSqliteState(db: Db): CarriedState {
  return Object.fromEntries(TABLES.map((t) => [t, db.prepare(selectOf(t)).all() as Record<string, unknown>[]])) as CarriedState;
}

/** The rows of a PostgreSQL schema, read with the caller's client (a snapshot when it holds one). */
export async function readPostgresState(client: pg.ClientBase): Promise<CarriedState> {
  const state = {} as CarriedState;
  for (const t of TABLES) state[t] = (await client.query<Record<string, unknown>>(selectOf(t))).rows;
  return state;
}

/**
 * Writes the rows in the caller's transaction. The adoption mark is replaced, not added: a node started on the
 * empty database may have marked it, and the bindings to adopt are the imported documents' (adopt-bindings.ts).
 */
export async function writePostgresState(client: pg.ClientBase, state: CarriedState): Promise<void> {
  await client.query('DELETE FROM tool_authorizations_adopted');
  for (const t of TABLES) {
    const columns = CARRIED_TABLES[t];
    const sql = `INSERT INTO ${t} (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`;
    for (const row of state[t])
      await client.query(
        sql,
        columns.map((c) => row[c] ?? null),
      );
  }
}

/** Writes the rows into a tollgate.db in one transaction, the adoption mark replaced as on PostgreSQL. */
export function writeSqliteState(db: Db, state: CarriedState): void {
  db.transaction(() => {
    db.exec('DELETE FROM tool_authorizations_adopted');
    for (const t of TABLES) {
      const columns = CARRIED_TABLES[t];
      const insert = db.prepare(`INSERT INTO ${t} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
      for (const row of state[t]) insert.run(...columns.map((c) => row[c] ?? null));
    }
  })();
}

/** How many rows of each table, for a command's report. */
export function stateCounts(state: CarriedState): Record<CarriedTable, number> {
  return Object.fromEntries(TABLES.map((t) => [t, state[t].length])) as Record<CarriedTable, number>;
}
