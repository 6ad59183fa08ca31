// How often a rule set ran, on PostgreSQL (model.ts says what is counted; the table is made by
// postgres-migrations.ts): the count of its runs beside the gate's decisions that name the set.
import type { RulesetVerdict } from '@tollgate/engine';
import { type Queryable, rowsOf } from '../postgres-query.ts';

/** Records one complete run of a set's version. */
export async function recordRun(on: Queryable, ruleset: string, version: number, verdict: RulesetVerdict, at: Date): Promise<void> {
  await rowsOf(on, 'INSERT INTO ruleset_runs (ruleset, version, verdict, created_at) VALUES ($1, $2, $3, $4)', [
    ruleset,
    version,
    verdict,
    at.toISOString(),
  ]);
}

/** Runs of a set since a time: its recorded validate runs and the gate decisions whose versions name it. */
export async function runsSince(on: Queryable, ruleset: string, since: Date): Promise<number> {
  const [row] = await rowsOf<{ n: number }>(
    on,
    `SELECT (SELECT count(*) FROM ruleset_runs WHERE ruleset = $1 AND created_at >= $2)
          + (SELECT count(*) FROM decisions WHERE created_at >= $2 AND versions::jsonb ? $1) AS n`,
    [ruleset, since.toISOString()],
  );
  return row?.n ?? 0;
}
