// The PostgreSQL database a command works on without serving (migrate, import, export, keys, members): opened on a
// small pool, its schema checked as serve checks it. Apart from open-workspace.ts, so these commands do not load the
// server.
import pg from 'pg';
import { guardClients } from '../server/postgres/pool-bounds.ts';
import { assertSchemaCurrent, SchemaMismatch } from '../server/postgres/schema.ts';
import { CliError } from './io.ts';

/** A pool on the database whose schema is the one this Tollgate knows; refused with serve's codes otherwise (exit 2). */
export async function openCurrentDatabase(url: string, command: string): Promise<pg.Pool> {
  const pool = new pg.Pool({ connectionString: url, max: 2, connectionTimeoutMillis: 5_000 });
  // A connection that drops emits 'error', idle on the pool or checked out on its client; without a listener that
  // ends the process (pool-bounds.ts). No server-side bounds: a command's one long transaction is its own.
  guardClients(pool);
  try {
    await assertSchemaCurrent(pool);
    return pool;
  } catch (err) {
    await pool.end().catch(() => {});
    if (err instanceof SchemaMismatch) throw new CliError(err.code, `tollgate ${command}: ${err.code}: ${err.message}`);
    const message = err instanceof Error ? err.message : String(err);
    throw new CliError('DATABASE_UNREACHABLE', `tollgate ${command}: DATABASE_UNREACHABLE: ${redacted(url)} does not answer (${message})`);
  }
}

/** The URL without its password, for a line printed to a terminal or a log. */
export function redacted(url: string): string {
  try {
    const u = new URL(url);
    if (u.password !== '') u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://…';
  }
}
