// Trials' counts on PostgreSQL, as sqlite.ts keeps them in SQLite (docs/review.md, "Trials on live calls"): a call
// is counted by one upsert that returns the new count and counts nothing past the trial's bound, so calls counted at
// once on any number of nodes are all counted and never overshoot; every differing call is kept with both answers and
// its arguments' digest (stored as model.ts writes them).
import {
  type DifferencesPage,
  inTransaction,
  isSampled,
  type TrialCounter,
  type TrialCounts,
  type TrialDifference,
  type TrialKey,
} from '@tollgate/store';
import type pg from 'pg';
import { rowsOf } from '../postgres-query.ts';
import {
  type CountsRow,
  callBound,
  countsOf,
  DIFFERENCE_COLUMNS,
  type DifferenceRow,
  differencesPageOf,
  differenceValues,
  REPORTED_DIFFERENCES,
  sampleColumn,
} from './model.ts';

/**
 * A TrialCounter over the trial_counts and trial_differences tables.
 *
 * @example
 * new PolicyTrials(store, { counter: new PostgresTrialCounter(pool) })
 */
export class PostgresTrialCounter implements TrialCounter {
  private readonly pool: pg.Pool;
  constructor(pool: pg.Pool) {
    this.pool = pool;
  }

  async countCall(trial: TrialKey): Promise<boolean> {
    // The conflicting row is locked and its WHERE read again after a concurrent update, so the bound holds across
    // nodes; past it no row is returned and the call is neither counted nor sampled.
    const [row] = await rowsOf<{ calls: number }>(
      this.pool,
      `INSERT INTO trial_counts (document, started_at, calls) VALUES ($1, $2, 1)
       ON CONFLICT (document, started_at) DO UPDATE SET calls = trial_counts.calls + 1 WHERE trial_counts.calls < $3
       RETURNING calls`,
      [trial.document, trial.startedAt, callBound(trial)],
    );
    return row !== undefined && isSampled(row.calls, trial.sampleRate);
  }

  async countSample(trial: TrialKey, difference: TrialDifference | undefined): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      const column = sampleColumn(difference);
      await rowsOf(
        client,
        `UPDATE trial_counts SET sampled = sampled + 1, ${column} = ${column} + 1 WHERE document = $1 AND started_at = $2`,
        [trial.document, trial.startedAt],
      );
      if (!difference) return;
      await rowsOf(
        client,
        `INSERT INTO trial_differences (document, started_at, call_id, arguments_digest, running, candidate)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [trial.document, trial.startedAt, ...differenceValues(difference)],
      );
    });
  }

  async counts(trial: TrialKey): Promise<TrialCounts> {
    const [row] = await rowsOf<CountsRow>(
      this.pool,
      'SELECT calls, sampled, agreed, differed FROM trial_counts WHERE document = $1 AND started_at = $2',
      [trial.document, trial.startedAt],
    );
    const rows = await rowsOf<DifferenceRow>(
      this.pool,
      `SELECT ${DIFFERENCE_COLUMNS} FROM trial_differences WHERE document = $1 AND started_at = $2
       ORDER BY id DESC LIMIT ${REPORTED_DIFFERENCES}`,
      [trial.document, trial.startedAt],
    );
    return countsOf(row, rows);
  }

  async differencesPage(trial: TrialKey, limit: number, before?: number): Promise<DifferencesPage> {
    const rows = await rowsOf<DifferenceRow>(
      this.pool,
      `SELECT ${DIFFERENCE_COLUMNS} FROM trial_differences WHERE document = $1 AND started_at = $2 AND id < $3
       ORDER BY id DESC LIMIT $4`,
      [trial.document, trial.startedAt, before ?? Number.MAX_SAFE_INTEGER, limit + 1],
    );
    return differencesPageOf(rows, limit);
  }

  async reset(document: string): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      await rowsOf(client, 'DELETE FROM trial_counts WHERE document = $1', [document]);
      await rowsOf(client, 'DELETE FROM trial_differences WHERE document = $1', [document]);
    });
  }
}
