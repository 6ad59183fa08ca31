// Trials' counts as both state stores keep them (docs/review.md, "Trials on live calls"): which counter a sample
// moves, a differing call's answers stored as JSON, and the counts read back from the rows. Pure, so the SQLite
// (sqlite.ts) and PostgreSQL (postgres.ts) counters write and read them alike.
import type { TrialCounts, TrialDifference, TrialVerdict } from '@tollgate/store';
import { readStoredJson } from '../stored-json.ts';

/** A trial's counters as its trial_counts row holds them. */
export type CountsRow = Omit<TrialCounts, 'differences'>;

/** A differing call as its trial_differences row holds it: both answers as JSON. */
export interface DifferenceRow {
  call_id: string;
  running: string;
  candidate: string;
}

/** The trial_counts column a sampled call adds one to: `differed` when the versions answered differently. */
export function sampleColumn(difference: TrialDifference | undefined): 'differed' | 'agreed' {
  return difference ? 'differed' : 'agreed';
}

/** A differing call's values as stored: its call id, then the running and the candidate answers as JSON. */
export function differenceValues(difference: TrialDifference): [string, string, string] {
  return [difference.callId, JSON.stringify(difference.running), JSON.stringify(difference.candidate)];
}

/**
 * A trial's counts from its row (none counted while there is none) and its differing calls' rows, oldest first.
 *
 * @example
 * countsOf(undefined, []) // { calls: 0, sampled: 0, agreed: 0, differed: 0, differences: [] }
 */
export function countsOf(row: CountsRow | undefined, rows: readonly DifferenceRow[]): TrialCounts {
  const differences = rows.map((r) => ({ callId: r.call_id, running: verdictOf(r.running), candidate: verdictOf(r.candidate) }));
  return { calls: row?.calls ?? 0, sampled: row?.sampled ?? 0, agreed: row?.agreed ?? 0, differed: row?.differed ?? 0, differences };
}

/** A stored answer: the server wrote it from its own values; one that does not read is shown as unknown, never guessed. */
function verdictOf(text: string): TrialVerdict {
  const value = readStoredJson(text) as Partial<TrialVerdict> | null;
  return {
    decision: typeof value?.decision === 'string' ? value.decision : 'unknown',
    rule: value?.rule ?? null,
    code: value?.code ?? null,
  };
}
