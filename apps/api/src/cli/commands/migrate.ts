// tollgate migrate: creates or upgrades the PostgreSQL schema nodes run on (docs/deploy.md, "Migrations"). Safe to
// run again and from several places at once; refused on a schema newer than this Tollgate knows.
import pg from 'pg';
import { guardClients } from '../../server/postgres/pool-bounds.ts';
import { describe, migrateSchema, SchemaMismatch } from '../../server/postgres/schema.ts';
import { CliError, type CliIo } from '../io.ts';
import { redacted } from '../open-database.ts';
import { databaseOf, type ParsedOptions } from '../options.ts';

export async function migrate(options: ParsedOptions, io: CliIo): Promise<number> {
  const url = databaseOf(options);
  if (url === undefined) throw new CliError('USAGE', 'missing --database URL (or TOLLGATE_DATABASE_URL)');
  const pool = new pg.Pool({ connectionString: url, max: 2, connectionTimeoutMillis: 5_000 });
  // Every client guarded (pool-bounds.ts); no lock_timeout, as two migrations at once wait for each other's lock.
  guardClients(pool);
  try {
    const { before, after } = await migrateSchema(pool).catch((err: unknown) => {
      if (err instanceof SchemaMismatch) throw new CliError(err.code, `tollgate migrate: ${err.code}: ${err.message}`, 1);
      throw new CliError(
        'DATABASE_UNREACHABLE',
        `tollgate migrate: DATABASE_UNREACHABLE: ${redacted(url)} does not answer (${err instanceof Error ? err.message : String(err)})`,
      );
    });
    if (options.json) {
      io.stdout.write(`${JSON.stringify({ database: redacted(url), before, after })}\n`);
    } else {
      const moved = before.state.current !== after.state.current || before.documents.current !== after.documents.current;
      io.stdout.write(
        moved
          ? `tollgate migrate: ${redacted(url)} migrated from ${describe(before)} to ${describe(after)}\n`
          : `tollgate migrate: ${redacted(url)} is current (${describe(after)})\n`,
      );
    }
    return 0;
  } finally {
    await pool.end().catch(() => {});
  }
}
