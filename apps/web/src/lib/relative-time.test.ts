import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ABSOLUTE_OPTIONS, absoluteWords, NOW_WITHIN_SECONDS, relativeParts, relativeWords } from './relative-time.ts';

const SECONDS: Record<string, number> = { second: 1, minute: 60, hour: 3_600, day: 86_400, month: 30 * 86_400, year: 365 * 86_400 };
const LOCALES = ['en', 'en-GB', 'de', 'fr', 'ja', 'ar-EG', 'hi', 'pt-BR'];
const instant = fc.integer({ min: Date.parse('1990-01-01T00:00:00Z'), max: Date.parse('2090-01-01T00:00:00Z') });
const at = (iso: string) => Date.parse(iso);

describe('relativeWords', () => {
  const base = at('2026-03-01T09:00:00Z');
  const after = (seconds: number) => base + seconds * 1000;

  it('says how long ago, in whole units counted towards zero', () => {
    expect(relativeWords(base, after(3), 'en')).toBe('now');
    expect(relativeWords(base, after(42), 'en')).toBe('42 seconds ago');
    expect(relativeWords(base, after(125), 'en')).toBe('2 minutes ago');
    expect(relativeWords(base, after(239), 'en')).toBe('3 minutes ago');
    expect(relativeWords(base, after(3 * 3600 + 59 * 60), 'en')).toBe('3 hours ago');
    expect(relativeWords(base, after(86_400 + 5), 'en')).toBe('yesterday');
    expect(relativeWords(base, after(2 * 86_400 + 5), 'en')).toBe('2 days ago');
    expect(relativeWords(base, after(400 * 86_400), 'en')).toBe('last year');
  });

  it('says how long until a future instant', () => {
    expect(relativeWords(after(5 * 60), base, 'en')).toBe('in 5 minutes');
    expect(relativeWords(after(-5), base, 'en')).toBe('now');
  });

  it('speaks the locale it is given', () => {
    expect(relativeWords(base, after(125), 'de')).toBe('vor 2 Minuten');
    expect(relativeWords(base, after(125), 'fr')).toBe('il y a 2 minutes');
  });

  it('picks the unit that brackets the distance, with the sign of the direction', () => {
    fc.assert(
      fc.property(instant, instant, (when, now) => {
        const { value, unit } = relativeParts(when, now);
        const distance = Math.abs(Math.trunc((when - now) / 1000));
        if (distance < NOW_WITHIN_SECONDS) return value === 0;
        const size = SECONDS[unit] ?? Number.NaN;
        const larger = Object.values(SECONDS).filter((s) => s > size);
        return (
          Math.sign(value) === Math.sign(when - now) &&
          Math.abs(value) * size <= distance &&
          distance < (Math.abs(value) + 1) * size &&
          // No larger unit would have had a whole one.
          larger.every((s) => distance < s)
        );
      }),
    );
  });

  it('never says less as time goes on', () => {
    fc.assert(
      fc.property(instant, instant, fc.nat({ max: 10 ** 10 }), (when, now, later) => {
        const seconds = ({ value, unit }: { value: number; unit: string }) => Math.abs(value) * (SECONDS[unit] ?? 0);
        const first = relativeParts(when, Math.max(now, when));
        const next = relativeParts(when, Math.max(now, when) + later);
        return seconds(next) >= seconds(first);
      }),
    );
  });

  it('formats in any locale without throwing and says something', () => {
    fc.assert(
      fc.property(instant, instant, fc.constantFrom(...LOCALES), (when, now, locale) => relativeWords(when, now, locale).length > 0),
    );
  });
});

describe('absoluteWords', () => {
  it('is the reader locale’s date and time when no locale is given', () => {
    fc.assert(fc.property(instant, (when) => absoluteWords(when) === new Intl.DateTimeFormat(undefined, ABSOLUTE_OPTIONS).format(when)));
  });

  it('follows the locale it is given', () => {
    fc.assert(
      fc.property(instant, fc.constantFrom(...LOCALES), (when, locale) => {
        const words = absoluteWords(when, locale);
        return words === new Intl.DateTimeFormat(locale, ABSOLUTE_OPTIONS).format(when) && words.length > 0;
      }),
    );
    const when = at('2026-03-01T09:00:00Z');
    expect(absoluteWords(when, 'en-US')).not.toBe(absoluteWords(when, 'de'));
    expect(new Intl.DateTimeFormat('en-US', { ...ABSOLUTE_OPTIONS, timeZone: 'UTC' }).format(when)).toBe('Mar 1, 2026, 9:00:00 AM UTC');
  });
});
