// Trials' counts on PostgreSQL, as sqlite.ts keeps them in SQLite (docs/review.md, "Trials on live calls"): a call
// is counted by one upsert that returns the new count, so calls counted at once on any number of nodes are all
// counted; the newest differing calls are kept with both answers (stored as model.ts writes them).
import {
  inTransaction,
  isSampled,
  MAX_TRIAL_DIFFERENCES,
  type TrialCounter,
  type TrialCounts,
  type TrialDifference,
  type TrialKey,
} from '@tollgate/store';
import type pg from 'pg';
import { rowsOf } from '../postgres-query.ts';
import { type CountsRow, countsOf, type DifferenceRow, differenceValues, sampleColumn } from './model.ts';

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
    const [row] = await rowsOf<{ calls: number }>(
      this.pool,
      `INSERT INTO trial_counts (document, started_at, calls) VALUES ($1, $2, 1)
       ON CONFLICT (document, started_at) DO UPDATE SET calls = trial_counts.calls + 1 RETURNING calls`,
      [trial.document, trial.startedAt],
    );
    return isSampled(row?.calls ?? 1, trial.sampleRate);
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
        'INSERT INTO trial_differences (document, started_at, call_id, running, candidate) VALUES ($1, $2, $3, $4, $5)',
        [trial.document, trial.startedAt, ...differenceValues(difference)],
      );
      // Only the newest are kept: the list is bounded however long a trial runs.
      await rowsOf(
        client,
        `DELETE FROM trial_differences WHERE document = $1 AND started_at = $2 AND id NOT IN
           (SELECT id FROM trial_differences WHERE document = $1 AND started_at = $2 ORDER BY id DESC LIMIT ${MAX_TRIAL_DIFFERENCES})`,
        [trial.document, trial.startedAt],
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
      'SELECT call_id, running, candidate FROM trial_differences WHERE document = $1 AND started_at = $2 ORDER BY id',
      [trial.document, trial.startedAt],
    );
    return countsOf(row, rows);
  }

  async reset(document: string): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      await rowsOf(client, 'DELETE FROM trial_counts WHERE document = $1', [document]);
      await rowsOf(client, 'DELETE FROM trial_differences WHERE document = $1', [document]);
    });
  }
}
