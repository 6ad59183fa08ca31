// What the state tells a readiness probe (GET /v1/health/ready, server/health/readiness.ts): whether this node's
// database answers within a short bound, whether its schema is the one this Tollgate knows, and whether the
// decision log is writing (docs/deploy.md, "Liveness and readiness"). Each is a pass or a fail, nothing more:
// the probe answers without a key and tells a caller nothing beyond the names of the checks.
import type pg from 'pg';
import { schemaStatus } from '../postgres/schema.ts';
import type { Db } from './db.ts';
import { decisionLogOf } from './decisions/sqlite-log.ts';
import type { StateReadiness } from './state-store.ts';

/** A promise's outcome, or a rejection once `ms` have passed (its timer never holds the process open). */
export function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

const passes = (work: Promise<unknown>, ms: number): Promise<boolean> =>
  within(ms, work).then(
    () => true,
    () => false,
  );

/** SQLite's: the connection open, and the decision log's writer not failing (sqlite-log.ts). */
export function sqliteReadiness(db: Db): StateReadiness {
  return { database: db.open, migrations: db.open, decisionLog: !decisionLogOf(db).failing };
}

/** PostgreSQL's: `SELECT 1` and the schema's status (postgres/schema.ts), each within `deadlineMs`. */
export async function postgresReadiness(pool: pg.Pool, logFailing: boolean, deadlineMs: number): Promise<StateReadiness> {
  const current = schemaStatus(pool).then((s) => {
    if (s.state.current !== s.state.known || s.documents.current !== s.documents.known) throw new Error('schema not current');
  });
  const [database, migrations] = await Promise.all([passes(pool.query('SELECT 1'), deadlineMs), passes(current, deadlineMs)]);
  return { database, migrations, decisionLog: database && !logFailing };
}
