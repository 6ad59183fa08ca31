// How often a rule set ran, on SQLite (model.ts says what is counted): the runs' table, made on first use, and
// the count of its runs beside the gate's decisions that name the set.
import type { RulesetVerdict } from '@tollgate/engine';
import type { Db } from '../db.ts';
import { flushDecisions } from '../decisions/sqlite-log.ts';

const prepared = new WeakSet<Db>();

function ensureTable(db: Db): void {
  if (prepared.has(db)) return;
  db.exec(`CREATE TABLE IF NOT EXISTS ruleset_runs (
    ruleset TEXT NOT NULL,
    version INTEGER NOT NULL,
    -- 'hold' stays allowed: runs recorded before a set's verdict became one pass or fail.
    verdict TEXT NOT NULL CHECK (verdict IN ('pass', 'hold', 'fail')),
    created_at TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS ruleset_runs_by_set ON ruleset_runs (ruleset, created_at);`);
  prepared.add(db);
}

/** Records one complete run of a set's version. */
export function recordRun(db: Db, ruleset: string, version: number, verdict: RulesetVerdict, at: Date): void {
  ensureTable(db);
  db.prepare('INSERT INTO ruleset_runs (ruleset, version, verdict, created_at) VALUES (?, ?, ?, ?)').run(
    ruleset,
    version,
    verdict,
    at.toISOString(),
  );
}

/** Runs of a set since a time: its recorded validate runs and the gate decisions it judged. */
export function runsSince(db: Db, ruleset: string, since: Date): number {
  ensureTable(db);
  // Decisions still queued for the log count too.
  flushDecisions(db);
  const at = since.toISOString();
  const validated = db.prepare('SELECT count(*) AS n FROM ruleset_runs WHERE ruleset = ? AND created_at >= ?').get(ruleset, at) as {
    n: number;
  };
  const decided = db
    .prepare(`SELECT count(*) AS n FROM decisions WHERE created_at >= ? AND json_extract(versions, '$."' || ? || '"') IS NOT NULL`)
    .get(at, ruleset) as { n: number };
  return validated.n + decided.n;
}
