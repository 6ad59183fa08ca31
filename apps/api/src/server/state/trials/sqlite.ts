// Trials' counts in the server's database (docs/review.md, "Trials on live calls"): each count is one UPDATE of
// its row, so calls counted at once, by one process or several sharing the data folder, are all counted, and the
// counts outlive a restart. The newest differing calls are kept with both answers (stored as model.ts writes them).
import {
  isSampled,
  MAX_TRIAL_DIFFERENCES,
  type TrialCounter,
  type TrialCounts,
  type TrialDifference,
  type TrialKey,
} from '@tollgate/store';
import type { Db } from '../db.ts';
import { type CountsRow, countsOf, type DifferenceRow, differenceValues, sampleColumn } from './model.ts';

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
      const row = this.db
        .prepare('UPDATE trial_counts SET calls = calls + 1 WHERE document = ? AND started_at = ? RETURNING calls')
        .get(trial.document, trial.startedAt) as { calls: number };
      return row.calls;
    })();
    return isSampled(calls, trial.sampleRate);
  }

  async countSample(trial: TrialKey, difference: TrialDifference | undefined): Promise<void> {
    this.db.transaction(() => {
      const column = sampleColumn(difference);
      this.db
        .prepare(`UPDATE trial_counts SET sampled = sampled + 1, ${column} = ${column} + 1 WHERE document = ? AND started_at = ?`)
        .run(trial.document, trial.startedAt);
      if (!difference) return;
      this.db
        .prepare('INSERT INTO trial_differences (document, started_at, call_id, running, candidate) VALUES (?, ?, ?, ?, ?)')
        .run(trial.document, trial.startedAt, ...differenceValues(difference));
      // Only the newest are kept: the list is bounded however long a trial runs.
      this.db
        .prepare(
          `DELETE FROM trial_differences WHERE document = ? AND started_at = ? AND id NOT IN
             (SELECT id FROM trial_differences WHERE document = ? AND started_at = ? ORDER BY id DESC LIMIT ${MAX_TRIAL_DIFFERENCES})`,
        )
        .run(trial.document, trial.startedAt, trial.document, trial.startedAt);
    })();
  }

  async counts(trial: TrialKey): Promise<TrialCounts> {
    const row = this.db
      .prepare('SELECT calls, sampled, agreed, differed FROM trial_counts WHERE document = ? AND started_at = ?')
      .get(trial.document, trial.startedAt) as CountsRow | undefined;
    const rows = this.db
      .prepare('SELECT call_id, running, candidate FROM trial_differences WHERE document = ? AND started_at = ? ORDER BY id')
      .all(trial.document, trial.startedAt) as DifferenceRow[];
    return countsOf(row, rows);
  }

  async reset(document: string): Promise<void> {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM trial_counts WHERE document = ?').run(document);
      this.db.prepare('DELETE FROM trial_differences WHERE document = ?').run(document);
    })();
  }
}
