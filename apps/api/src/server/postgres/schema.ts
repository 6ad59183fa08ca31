// The PostgreSQL schema a node runs on (docs/deploy.md, "Migrations"): two numbered sequences, the server state's
// (state/postgres-migrations.ts) and the document store's (@tollgate/store), applied in order by `tollgate migrate`
// with the one runner and recorded in the one ledger (@tollgate/store's postgres-migrations.ts). A node starts only on a schema whose both
// sequences are exactly the ones it knows: an older one is migrated first, a newer one needs a newer Tollgate.
import { appliedVersion, applyDocumentMigrations, DOCUMENT_MIGRATIONS, POSTGRES_DOCUMENT_MIGRATIONS } from '@tollgate/store';
import type pg from 'pg';
import { migratePostgres, POSTGRES_STATE_MIGRATIONS, schemaVersionOf } from '../state/postgres-migrations.ts';

export interface SequenceStatus {
  /** The highest step applied (0: none). */
  current: number;
  /** The highest step this Tollgate knows. */
  known: number;
}

export interface SchemaStatus {
  state: SequenceStatus;
  documents: SequenceStatus;
}

/** Why a node does not start on a schema, with the code the CLI exits with. */
export class SchemaMismatch extends Error {
  readonly code: 'SCHEMA_MISSING' | 'SCHEMA_OUTDATED' | 'SCHEMA_NEWER';
  constructor(code: SchemaMismatch['code'], message: string) {
    super(message);
    this.code = code;
    this.name = 'SchemaMismatch';
  }
}

/** Both sequences as applied to the pool's schema and as this Tollgate knows them. */
export async function schemaStatus(pool: pg.Pool): Promise<SchemaStatus> {
  return {
    state: { current: await schemaVersionOf(pool), known: POSTGRES_STATE_MIGRATIONS.length },
    documents: { current: await appliedVersion(pool, DOCUMENT_MIGRATIONS.name), known: POSTGRES_DOCUMENT_MIGRATIONS.length },
  };
}

/**
 * Applies every step not yet applied, of both sequences (idempotent; two nodes at once take turns); refused,
 * with nothing applied, on a schema newer than this Tollgate knows.
 */
export async function migrateSchema(pool: pg.Pool): Promise<{ before: SchemaStatus; after: SchemaStatus }> {
  const before = await schemaStatus(pool);
  refuseNewer(before);
  await migratePostgres(pool, POSTGRES_STATE_MIGRATIONS);
  const client = await pool.connect();
  try {
    await applyDocumentMigrations(client);
  } finally {
    client.release();
  }
  return { before, after: await schemaStatus(pool) };
}

/** Refuses to run on a schema that is missing, older or newer than this Tollgate knows, saying which and what to do. */
export async function assertSchemaCurrent(pool: pg.Pool): Promise<SchemaStatus> {
  const status = await schemaStatus(pool);
  refuseNewer(status);
  if (status.state.current === 0 && status.documents.current === 0) {
    throw new SchemaMismatch('SCHEMA_MISSING', 'the database has no Tollgate schema: run tollgate migrate --database URL first');
  }
  const behind = (['state', 'documents'] as const).filter((k) => status[k].current < status[k].known);
  if (behind.length > 0) {
    throw new SchemaMismatch(
      'SCHEMA_OUTDATED',
      `the database's schema is older than this Tollgate knows (${describe(status)}): run tollgate migrate --database URL`,
    );
  }
  return status;
}

function refuseNewer(status: SchemaStatus): void {
  if (status.state.current > status.state.known || status.documents.current > status.documents.known) {
    throw new SchemaMismatch(
      'SCHEMA_NEWER',
      `the database's schema is newer than this Tollgate knows (${describe(status)}): run a Tollgate at least as new as the one that migrated it`,
    );
  }
}

/** "state 5 of 5, documents 1 of 1": applied of known, per sequence. */
export function describe(status: SchemaStatus): string {
  return `state ${status.state.current} of ${status.state.known}, documents ${status.documents.current} of ${status.documents.known}`;
}
