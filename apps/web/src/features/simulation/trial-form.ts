// Pure helpers of the "Start a trial" form: the versions a trial may run, what the form's fields send to
// POST /v1/trials, and how a trial's state and scope read (docs/console.md, "Simulation"; docs/review.md,
// "Trials on live calls"). Only what the form can judge alone is checked here: whether ends_at is after now,
// or the version may run, is the server's to say (INVALID_SAVE, REJECTED_VERSION), so its words are shown.
import type { PolicyVersion, TrialReport } from './api/types.ts';

/** The body of POST /v1/trials as the console sends it: always a sample rate, never sample_every. */
export interface StartTrialBody {
  document: string;
  sequence: number;
  sample_rate: number;
  agent?: string;
  tool?: string;
  ends_at?: string;
  max_samples?: number;
}

/** The form's fields as typed; `candidate` is a version's sequence, or empty for the newest one offered. */
export interface TrialFormValues {
  candidate: string;
  percent: string;
  agent: string;
  tool: string;
  /** A datetime-local value (`2026-03-01T09:30`), in the browser's time zone; empty is no end. */
  endsAt: string;
  maxSamples: string;
}

export type TrialField = keyof TrialFormValues;

export const EMPTY_TRIAL_FORM: TrialFormValues = { candidate: '', percent: '100', agent: '', tool: '', endsAt: '', maxSamples: '' };

/** What a field holds, or why it cannot be sent. */
export type Read<T> = { ok: true; value: T } | { ok: false; problem: string };

/**
 * The versions a trial may run: stored, not running (a trial runs a candidate) and not rejected (it would not
 * load), newest first. Example: of versions 1 (running), 2 (rejected) and 3, only 3.
 */
export function trialCandidates(versions: readonly PolicyVersion[]): PolicyVersion[] {
  return versions.filter((v) => !v.running && !v.rejected).sort((a, b) => b.sequence - a.sequence);
}

const WHOLE = /^[0-9]+$/;

/**
 * A sample rate typed as a whole percent, 1 to 100, as the share of calls the API takes.
 * Example: `rateOfPercent('25')` is `{ok: true, value: 0.25}`; `rateOfPercent('0')` is refused.
 */
export function rateOfPercent(text: string): Read<number> {
  const typed = text.trim();
  const percent = WHOLE.test(typed) ? Number(typed) : Number.NaN;
  if (!(percent >= 1 && percent <= 100)) return { ok: false, problem: 'The sample rate is a whole percent from 1 to 100.' };
  return { ok: true, value: percent / 100 };
}

/**
 * Max samples typed as a whole number, at least 1 (at most 2^53 - 1, so the number sent is the one typed).
 * Example: `wholeSamples('3')` is `{ok: true, value: 3}`; `wholeSamples('1.5')` is refused.
 */
export function wholeSamples(text: string): Read<number> {
  const typed = text.trim();
  const count = WHOLE.test(typed) ? Number(typed) : Number.NaN;
  if (!(Number.isSafeInteger(count) && count >= 1)) return { ok: false, problem: 'Max samples is a whole number, at least 1.' };
  return { ok: true, value: count };
}

/** A datetime-local value: a four-digit year, then minutes, optional seconds and milliseconds. */
const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/;

/**
 * A datetime-local value (the browser's time zone) as the ISO instant the API takes (RFC 3339, in UTC).
 * A date that does not exist (30 February) or a time the clocks skip (a daylight-saving gap) is refused rather
 * than moved; a time the clocks pass twice is the first of the two (JavaScript's own reading of local time).
 *
 * @example
 * isoOfLocal('2026-03-01T09:30') // in UTC: { ok: true, value: '2026-03-01T09:30:00.000Z' }
 */
export function isoOfLocal(local: string): Read<string> {
  const parts = LOCAL_TIME.exec(local);
  if (!parts) return { ok: false, problem: 'A time is a date and a time of day, such as 2026-03-01T09:30.' };
  const field = (i: number) => Number(parts[i] ?? 0);
  const [year, month, day, hour, minute, second] = [field(1), field(2) - 1, field(3), field(4), field(5), field(6)];
  const milli = Number((parts[7] ?? '').padEnd(3, '0'));
  const at = new Date(0);
  // setFullYear, not the constructor: the constructor reads years 0 to 99 as 1900 to 1999.
  at.setFullYear(year, month, day);
  at.setHours(hour, minute, second, milli);
  const same =
    at.getFullYear() === year &&
    at.getMonth() === month &&
    at.getDate() === day &&
    at.getHours() === hour &&
    at.getMinutes() === minute &&
    at.getSeconds() === second;
  if (!same) return { ok: false, problem: `${local} is not a time on this computer's clock (no such date, or the clocks skip it).` };
  return { ok: true, value: at.toISOString() };
}

/**
 * The body POST /v1/trials is sent for `document`, or the first field at fault and why. `offered` is the
 * versions the form offers (trialCandidates), the newest first: an empty candidate is the newest.
 *
 * @example
 * startTrialBody('policies/a.policy.json', { ...EMPTY_TRIAL_FORM, percent: '50', agent: ' support-bot ' }, [3])
 * // { ok: true, body: { document: 'policies/a.policy.json', sequence: 3, sample_rate: 0.5, agent: 'support-bot' } }
 */
export function startTrialBody(
  document: string,
  form: TrialFormValues,
  offered: readonly number[],
): { ok: true; body: StartTrialBody } | { ok: false; field: TrialField; problem: string } {
  const sequence = form.candidate === '' ? offered[0] : Number(form.candidate);
  if (sequence === undefined || !offered.includes(sequence)) {
    return { ok: false, field: 'candidate', problem: 'Pick a stored version that is not running and was not rejected.' };
  }
  const rate = rateOfPercent(form.percent);
  if (!rate.ok) return { ok: false, field: 'percent', problem: rate.problem };
  const body: StartTrialBody = { document, sequence, sample_rate: rate.value };
  const agent = form.agent.trim();
  if (agent !== '') body.agent = agent;
  const tool = form.tool.trim();
  if (tool !== '') body.tool = tool;
  if (form.endsAt !== '') {
    const endsAt = isoOfLocal(form.endsAt);
    if (!endsAt.ok) return { ok: false, field: 'endsAt', problem: endsAt.problem };
    body.ends_at = endsAt.value;
  }
  if (form.maxSamples.trim() !== '') {
    const max = wholeSamples(form.maxSamples);
    if (!max.ok) return { ok: false, field: 'maxSamples', problem: max.problem };
    body.max_samples = max.value;
  }
  return { ok: true, body };
}

/**
 * Where a trial stands, in words: running, stopped by a person, or ended by its own bound.
 * Example: `trialStateWords({running: false, ended: 'max_samples'})` is `'ended: its last sample taken'`.
 */
export function trialStateWords(trial: Pick<TrialReport, 'running' | 'ended'>): string {
  if (trial.running) return 'running';
  if (trial.ended === 'ends_at') return 'ended: its end time passed';
  if (trial.ended === 'max_samples') return 'ended: its last sample taken';
  return 'stopped';
}
