// Trials' counts in the server's database (docs/review.md, "Trials on live calls"): each count is one UPDATE of
// its row, so calls counted at once, by one process or several sharing the data folder, are all counted, none past
// the trial's bound, and the counts outlive a restart. Every differing call is kept with both answers and its
// arguments' digest (stored as model.ts writes them).
import type { DifferencesPage, TrialCounter, TrialCounts, TrialDifference, TrialKey } from '@tollgate/store';
import { isSampled } from '@tollgate/store';
import type { Db } from '../db.ts';
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
 * new PolicyTrials(store, { counter: new SqliteTrialCounter(db) })
 */
export class SqliteTrialCounter implements TrialCounter {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  async countCall(trial: TrialKey): Promise<boolean> {
    const calls = this.db.transaction(() => {
      this.db
        .prepare('INSERT INTO trial_counts (document, started_at) VALUES (?, ?) ON CONFLICT DO NOTHING')
        .run(trial.document, trial.startedAt);
      // Past the bound no row is updated: the call is neither counted nor sampled.
      const row = this.db
        .prepare('UPDATE trial_counts SET calls = calls + 1 WHERE document = ? AND started_at = ? AND calls < ? RETURNING calls')
        .get(trial.document, trial.startedAt, callBound(trial)) as { calls: number } | undefined;
      return row?.calls;
    })();
    return calls !== undefined && isSampled(calls, trial.sampleRate);
  }

  async countSample(trial: TrialKey, difference: TrialDifference | undefined): Promise<void> {
    this.db.transaction(() => {
      const column = sampleColumn(difference);
      this.db
        .prepare(`UPDATE trial_counts SET sampled = sampled + 1, ${column} = ${column} + 1 WHERE document = ? AND started_at = ?`)
        .run(trial.document, trial.startedAt);
      if (!difference) return;
      this.db
        .prepare(
          'INSERT INTO trial_differences (document, started_at, call_id, arguments_digest, running, candidate) VALUES (?, ?, ?, ?, ?, ?)',
        )
        .run(trial.document, trial.startedAt, ...differenceValues(difference));
    })();
  }

  async counts(trial: TrialKey): Promise<TrialCounts> {
    const row = this.db
      .prepare('SELECT calls, sampled, agreed, differed FROM trial_counts WHERE document = ? AND started_at = ?')
      .get(trial.document, trial.startedAt) as CountsRow | undefined;
    const rows = this.db
      .prepare(
        `SELECT ${DIFFERENCE_COLUMNS} FROM trial_differences WHERE document = ? AND started_at = ? ORDER BY id DESC LIMIT ${REPORTED_DIFFERENCES}`,
      )
      .all(trial.document, trial.startedAt) as DifferenceRow[];
    return countsOf(row, rows);
  }

  async differencesPage(trial: TrialKey, limit: number, before?: number): Promise<DifferencesPage> {
    const rows = this.db
      .prepare(
        `SELECT ${DIFFERENCE_COLUMNS} FROM trial_differences WHERE document = ? AND started_at = ? AND id < ? ORDER BY id DESC LIMIT ?`,
      )
      .all(trial.document, trial.startedAt, before ?? Number.MAX_SAFE_INTEGER, limit + 1) as DifferenceRow[];
    return differencesPageOf(rows, limit);
  }

  async reset(document: string): Promise<void> {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM trial_counts WHERE document = ?').run(document);
      this.db.prepare('DELETE FROM trial_differences WHERE document = ?').run(document);
    })();
  }
}
