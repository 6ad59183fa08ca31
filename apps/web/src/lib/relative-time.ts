// Times as the console shows them: relative words ("3 minutes ago", "in 2 hours") in the reader's locale, and the
// absolute instant, also in the reader's locale, for the hover title (docs/console.md, "Times").

/** The units a relative time is said in, with their length in seconds (a month is 30 days, a year 365). */
const UNITS: readonly { unit: Intl.RelativeTimeFormatUnit; seconds: number }[] = [
  { unit: 'year', seconds: 365 * 86_400 },
  { unit: 'month', seconds: 30 * 86_400 },
  { unit: 'day', seconds: 86_400 },
  { unit: 'hour', seconds: 3_600 },
  { unit: 'minute', seconds: 60 },
  { unit: 'second', seconds: 1 },
];

/** Under this many seconds either way an instant is "now": a clock a few seconds off never says "in 3 seconds". */
export const NOW_WITHIN_SECONDS = 10;

/** A relative time as a number of whole units: negative before now, positive after, 0 for "now". */
export interface RelativeParts {
  value: number;
  unit: Intl.RelativeTimeFormatUnit;
}

/**
 * The largest unit with at least one whole unit between `at` and `now`, counted towards zero, so "3 minutes ago"
 * holds from 3:00 to 3:59.
 *
 * @example
 * relativeParts(Date.parse('2026-03-01T09:00:00Z'), Date.parse('2026-03-01T09:03:59Z')) // { value: -3, unit: 'minute' }
 */
export function relativeParts(at: number, now: number): RelativeParts {
  const seconds = Math.trunc((at - now) / 1000);
  const size = Math.abs(seconds);
  if (size < NOW_WITHIN_SECONDS) return { value: 0, unit: 'second' };
  for (const { unit, seconds: length } of UNITS) {
    if (size >= length) return { value: Math.sign(seconds) * Math.floor(size / length), unit };
  }
  return { value: 0, unit: 'second' };
}

const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();
const absoluteFormats = new Map<string, Intl.DateTimeFormat>();

/** One formatter per locale: building one costs far more than formatting with it, and a table shows many times. */
function relativeFormat(locale: string | undefined): Intl.RelativeTimeFormat {
  const key = locale ?? '';
  let format = relativeFormats.get(key);
  if (format === undefined) {
    format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
    relativeFormats.set(key, format);
  }
  return format;
}

/** The absolute form: date and time with seconds and the zone, since a hover is where a person checks the exact time. */
export const ABSOLUTE_OPTIONS: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'long' };

function absoluteFormat(locale: string | undefined): Intl.DateTimeFormat {
  const key = locale ?? '';
  let format = absoluteFormats.get(key);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(locale, ABSOLUTE_OPTIONS);
    absoluteFormats.set(key, format);
  }
  return format;
}

/**
 * How far `at` is from `now`, in words of `locale` (the reader's when undefined).
 *
 * @example
 * relativeWords(Date.parse('2026-03-01T09:00:00Z'), Date.parse('2026-03-01T09:02:05Z'), 'en') // '2 minutes ago'
 */
export function relativeWords(at: number, now: number, locale?: string): string {
  const { value, unit } = relativeParts(at, now);
  return relativeFormat(locale).format(value, unit);
}

/**
 * The instant in `locale` (the reader's when undefined) and the reader's time zone.
 *
 * @example
 * absoluteWords(Date.parse('2026-03-01T09:00:00Z'), 'en-GB') // '1 Mar 2026, 09:00:00 UTC' where the zone is UTC
 */
export function absoluteWords(at: number, locale?: string): string {
  return absoluteFormat(locale).format(at);
}
