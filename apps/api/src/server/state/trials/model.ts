// Trials' counts as both state stores keep them (docs/review.md, "Trials on live calls"): which counter a sample
// moves, where counting stops, a differing call's answers stored as JSON with its arguments' digest, and the counts
// and pages read back from the rows. Pure, so the SQLite (sqlite.ts) and PostgreSQL (postgres.ts) counters write and
// read them alike.
import {
  callLimit,
  type DifferencesPage,
  MAX_TRIAL_DIFFERENCES,
  type NumberedDifference,
  type TrialCounts,
  type TrialDifference,
  type TrialKey,
  type TrialVerdict,
} from '@tollgate/store';
import { readStoredJson } from '../stored-json.ts';

/** A trial's counters as its trial_counts row holds them. */
export type CountsRow = Omit<TrialCounts, 'differences'>;

/** A differing call as its trial_differences row holds it: both answers as JSON, the arguments' digest alone. */
export interface DifferenceRow {
  id: number | string;
  call_id: string;
  arguments_digest: string | null;
  running: string;
  candidate: string;
}

/** The columns a difference is read with, in DifferenceRow's order. */
export const DIFFERENCE_COLUMNS = 'id, call_id, arguments_digest, running, candidate';

/** The count a call must stay under to be counted: counting stops at the trial's last call (callLimit). */
export function callBound(trial: TrialKey): number {
  return callLimit(trial.maxSamples, trial.sampleRate);
}

/** The trial_counts column a sampled call adds one to: `differed` when the versions answered differently. */
export function sampleColumn(difference: TrialDifference | undefined): 'differed' | 'agreed' {
  return difference ? 'differed' : 'agreed';
}

/** A differing call's values as stored: its call id, its arguments' digest, then the running and the candidate answers as JSON. */
export function differenceValues(difference: TrialDifference): [string, string | null, string, string] {
  return [difference.callId, difference.argumentsDigest ?? null, JSON.stringify(difference.running), JSON.stringify(difference.candidate)];
}

/** The newest differences a report lists, read newest first (`ORDER BY id DESC LIMIT` this). */
export const REPORTED_DIFFERENCES = MAX_TRIAL_DIFFERENCES;

/** A page from rows read newest first, one more than `limit` (the extra says whether older ones follow). */
export function differencesPageOf(rows: readonly DifferenceRow[], limit: number): DifferencesPage {
  return { differences: rows.slice(0, limit).map(numberedOf), more: rows.length > limit };
}

/**
 * A trial's counts from its row (none counted while there is none) and its newest differing calls' rows, read
 * newest first and listed oldest first.
 *
 * @example
 * countsOf(undefined, []) // { calls: 0, sampled: 0, agreed: 0, differed: 0, differences: [] }
 */
export function countsOf(row: CountsRow | undefined, newestFirst: readonly DifferenceRow[]): TrialCounts {
  const differences = [...newestFirst].reverse().map(differenceOf);
  return { calls: row?.calls ?? 0, sampled: row?.sampled ?? 0, agreed: row?.agreed ?? 0, differed: row?.differed ?? 0, differences };
}

function differenceOf(r: DifferenceRow): TrialDifference {
  return {
    callId: r.call_id,
    ...(r.arguments_digest === null ? {} : { argumentsDigest: r.arguments_digest }),
    running: verdictOf(r.running),
    candidate: verdictOf(r.candidate),
  };
}

function numberedOf(r: DifferenceRow): NumberedDifference {
  return { ...differenceOf(r), seq: Number(r.id) };
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
