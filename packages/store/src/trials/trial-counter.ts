// Where a trial's counts are kept. The default keeps them in the store's state beside the trial; the API keeps
// them in its SQLite database, where one UPDATE adds a call however many processes count at once (docs/review.md,
// "Trials on live calls").
import { type DocumentStore, StoreError } from '../types.ts';

/** What one version answered a call. */
export interface TrialVerdict {
  decision: string;
  rule: string | null;
  /** A plain string, not the registry's Code: counts are read back from what the store kept, unchecked. */
  code: string | null;
}

/** A sampled call the two versions answered differently. */
export interface TrialDifference {
  callId: string;
  /** The digest of the call's arguments, as the decision log keeps it; never the values. */
  argumentsDigest?: string;
  running: TrialVerdict;
  candidate: TrialVerdict;
}

/** A trial's counts. */
export interface TrialCounts {
  calls: number;
  sampled: number;
  agreed: number;
  differed: number;
  /** The newest MAX_TRIAL_DIFFERENCES differing calls, oldest first (every one is in `differencesPage`). */
  differences: TrialDifference[];
}

/** A differing call with the number that orders the trial's list: a larger one is newer. */
export type NumberedDifference = TrialDifference & { seq: number };

/** One page of a trial's differing calls, newest first. */
export interface DifferencesPage {
  differences: NumberedDifference[];
  /** Whether older ones follow: ask again `before` the last one's seq. */
  more: boolean;
}

/** Which trial is counted: a trial started again is another one, with counts of its own. */
export interface TrialKey {
  document: string;
  startedAt: string;
  sampleRate: number;
  /** The trial ends after this many sampled calls (none: it samples until stopped). */
  maxSamples?: number | undefined;
}

/** How many differing calls a trial's report lists (the newest). */
export const MAX_TRIAL_DIFFERENCES = 100;

export const NO_COUNTS: Readonly<TrialCounts> = Object.freeze({ calls: 0, sampled: 0, agreed: 0, differed: 0, differences: [] });

/** Keeps trial counts. Every count is one atomic step, so calls counted at once are all counted. */
export interface TrialCounter {
  /**
   * Adds one call to the trial and says whether it is sampled (every 1/rate-th call, by the new count). Once the
   * trial has counted `callLimit(maxSamples, rate)` calls, a call is neither counted nor sampled: the bound holds
   * however many calls are counted at once.
   */
  countCall(trial: TrialKey): Promise<boolean>;
  /** Adds a sampled call's comparison: agreed without a difference, differed with one. */
  countSample(trial: TrialKey, difference: TrialDifference | undefined): Promise<void>;
  counts(trial: TrialKey): Promise<TrialCounts>;
  /** At most `limit` differing calls, newest first, from just before the `before`-th (the newest without it). */
  differencesPage(trial: TrialKey, limit: number, before?: number): Promise<DifferencesPage>;
  /** Forgets the document's counts, as a trial starts. */
  reset(document: string): Promise<void>;
}

/**
 * Whether the `calls`-th call is sampled at `rate`: deterministically every 1/rate-th call, so the counts
 * never depend on chance.
 *
 * @example
 * isSampled(2, 0.5) // true; isSampled(3, 0.5) // false
 */
export function isSampled(calls: number, rate: number): boolean {
  return Math.floor(calls * rate) > Math.floor((calls - 1) * rate);
}

/**
 * How many calls a trial counts before it has sampled `maxSamples` of them at `rate` (isSampled): its last call.
 * Unbounded without `maxSamples`.
 *
 * @example
 * callLimit(2, 0.25) // 8: the 4th and the 8th calls are sampled
 */
export function callLimit(maxSamples: number | undefined, rate: number): number {
  if (maxSamples === undefined) return Number.MAX_SAFE_INTEGER;
  // Calls 1..c hold floor(c * rate) samples (isSampled telescopes); the least c with maxSamples of them, found
  // from the division and mended by the same floors isSampled takes, so the two never disagree on a double.
  let c = Math.max(1, Math.ceil(maxSamples / rate));
  while (c > 1 && Math.floor((c - 1) * rate) >= maxSamples) c--;
  while (Math.floor(c * rate) < maxSamples) c++;
  return c;
}

/** How long a call waits to count itself while another process holds the store's lock. */
const COUNT_WAIT_MS = 50;

type StoredCounts = TrialCounts & { startedAt: string };

/** Counts kept in the store's state (`trial-counts/<document>`), changed under the store's lock. */
export class StateTrialCounter implements TrialCounter {
  private readonly store: DocumentStore;
  constructor(store: DocumentStore) {
    this.store = store;
  }

  async countCall(trial: TrialKey): Promise<boolean> {
    let sampled = false;
    await this.update(trial, (now) => {
      if (now.calls >= callLimit(trial.maxSamples, trial.sampleRate)) return;
      now.calls++;
      sampled = isSampled(now.calls, trial.sampleRate);
    });
    return sampled;
  }

  async countSample(trial: TrialKey, difference: TrialDifference | undefined): Promise<void> {
    await this.update(trial, (now) => {
      now.sampled++;
      if (!difference) now.agreed++;
      else {
        now.differed++;
        now.differences = [...now.differences, difference].slice(-MAX_TRIAL_DIFFERENCES);
      }
    });
  }

  async counts(trial: TrialKey): Promise<TrialCounts> {
    const value = (await this.store.readState(this.key(trial.document))) as StoredCounts | null | undefined;
    if (value?.startedAt !== trial.startedAt) return { ...NO_COUNTS, differences: [] };
    const { startedAt: _, ...counts } = value;
    return counts;
  }

  /** The store's state keeps the newest MAX_TRIAL_DIFFERENCES only (the API's database keeps every one). */
  async differencesPage(trial: TrialKey, limit: number, before?: number): Promise<DifferencesPage> {
    const { differed, differences } = await this.counts(trial);
    const first = differed - differences.length + 1;
    const numbered = differences.map((d, i) => ({ ...d, seq: first + i })).reverse();
    const older = numbered.filter((d) => before === undefined || d.seq < before);
    return { differences: older.slice(0, limit), more: older.length > limit };
  }

  async reset(document: string): Promise<void> {
    await this.store.writeState(this.key(document), null);
  }

  private async update(trial: TrialKey, change: (now: StoredCounts) => void): Promise<void> {
    try {
      await this.store.updateState(
        this.key(trial.document),
        (value) => {
          const stored = value as StoredCounts | null | undefined;
          const now = stored?.startedAt === trial.startedAt ? stored : { ...NO_COUNTS, differences: [], startedAt: trial.startedAt };
          change(now);
          return now;
        },
        { waitMs: COUNT_WAIT_MS },
      );
    } catch (err) {
      // The counts are advisory: a call is never held up or refused because another process holds the
      // store's lock (docs/store.md, "The lock"); that call goes uncounted.
      if (!(err instanceof StoreError && err.code === 'locked')) throw err;
    }
  }

  private key(document: string): string {
    return `trial-counts/${document}`;
  }
}
