// Trials' counts on PostgreSQL, as trial-counts.ts keeps them in SQLite (docs/review.md, "Trials on live
// calls"): a call is counted by one upsert that returns the new count, so calls counted at once on any number of
// nodes are all counted; the newest differing calls are kept with both answers.
import {
  isSampled,
  MAX_TRIAL_DIFFERENCES,
  type TrialCounter,
  type TrialCounts,
  type TrialDifference,
  type TrialKey,
  type TrialVerdict,
} from '@tollgate/store';
import type pg from 'pg';
import { inTransaction, rowsOf } from './postgres-query.ts';
import { readStoredJson } from './stored-json.ts';

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
      const column = difference ? 'differed' : 'agreed';
      await rowsOf(
        client,
        `UPDATE trial_counts SET sampled = sampled + 1, ${column} = ${column} + 1 WHERE document = $1 AND started_at = $2`,
        [trial.document, trial.startedAt],
      );
      if (!difference) return;
      await rowsOf(
        client,
        'INSERT INTO trial_differences (document, started_at, call_id, running, candidate) VALUES ($1, $2, $3, $4, $5)',
        [trial.document, trial.startedAt, difference.callId, JSON.stringify(difference.running), JSON.stringify(difference.candidate)],
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
    const [row] = await rowsOf<Omit<TrialCounts, 'differences'>>(
      this.pool,
      'SELECT calls, sampled, agreed, differed FROM trial_counts WHERE document = $1 AND started_at = $2',
      [trial.document, trial.startedAt],
    );
    const rows = await rowsOf<{ call_id: string; running: string; candidate: string }>(
      this.pool,
      'SELECT call_id, running, candidate FROM trial_differences WHERE document = $1 AND started_at = $2 ORDER BY id',
      [trial.document, trial.startedAt],
    );
    const differences = rows.map((r) => ({ callId: r.call_id, running: verdict(r.running), candidate: verdict(r.candidate) }));
    return { calls: row?.calls ?? 0, sampled: row?.sampled ?? 0, agreed: row?.agreed ?? 0, differed: row?.differed ?? 0, differences };
  }

  async reset(document: string): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      await rowsOf(client, 'DELETE FROM trial_counts WHERE document = $1', [document]);
      await rowsOf(client, 'DELETE FROM trial_differences WHERE document = $1', [document]);
    });
  }
}

/** A stored answer: one that does not read is shown as unknown, never guessed (as trial-counts.ts). */
function verdict(text: string): TrialVerdict {
  const value = readStoredJson(text) as Partial<TrialVerdict> | null;
  return {
    decision: typeof value?.decision === 'string' ? value.decision : 'unknown',
    rule: value?.rule ?? null,
    code: value?.code ?? null,
  };
}
