// The shared readers: ISO 8601 date-times read exactly, and references checked by kind and existence.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../source/diagnostic.ts';
import { parseDateTime, readList, readReference } from './values.ts';

describe('parseDateTime', () => {
  it.each([
    ['2025-07-01T09:00:00Z', Date.parse('2025-07-01T09:00:00Z')],
    ['2025-07-01T09:00:00+02:00', Date.parse('2025-07-01T07:00:00Z')],
    ['2025-07-01T09:00:00-05:30', Date.parse('2025-07-01T14:30:00Z')],
    ['2025-07-01T09:00:00.5Z', Date.parse('2025-07-01T09:00:00.500Z')],
    ['2024-02-29T23:59:59Z', Date.parse('2024-02-29T23:59:59Z')],
    ['0050-01-01T00:00:00Z', Date.parse('0050-01-01T00:00:00Z')],
  ])('reads %s', (text, millis) => {
    expect(parseDateTime(text)).toBe(millis);
  });

  it.each([
    '2025-07-01',
    '2025-07-01T09:00Z',
    '2025-07-01T09:00:00',
    '2025-07-01 09:00:00Z',
    '2025-02-29T00:00:00Z',
    '2025-04-31T00:00:00Z',
    '2025-00-10T00:00:00Z',
    '2025-13-10T00:00:00Z',
    '2025-07-00T00:00:00Z',
    '2025-07-01T24:00:00Z',
    '2025-07-01T09:60:00Z',
    '2025-07-01T09:00:60Z',
    '2025-07-01T09:00:00.1234Z',
    '2025-07-01T09:00:00+2:00',
    '2025-07-01T09:00:00+24:00',
    ' 2025-07-01T09:00:00Z',
  ])('refuses %j', (text) => {
    expect(parseDateTime(text)).toBeUndefined();
  });

  it('agrees with Date.parse on every date-time it accepts, written in UTC', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }), (d) => {
        const text = d.toISOString();
        expect(parseDateTime(text)).toBe(d.getTime());
      }),
    );
  });
});

describe('readReference', () => {
  it('takes an id of an allowed kind, and says what it is otherwise', () => {
    const problems: Diagnostic[] = [];
    expect(readReference('colang/a.co', '/rulebook', ['sheet', 'colang'], problems)).toBe('colang/a.co');
    expect(readReference('settings.yaml', '/rulebook', ['sheet', 'colang'], problems)).toBeUndefined();
    expect(readReference(7, '/rulebook', ['sheet'], problems)).toBeUndefined();
    expect(problems.map((p) => [p.code, p.message])).toEqual([
      [
        'WRONG_DOCUMENT_KIND',
        'settings.yaml is the settings file; name a rule sheet (sheets/shop.rules.yaml) or a Colang policy (colang/shop.co)',
      ],
      ['INVALID_TYPE', 'expected a document id such as sheets/shop.rules.yaml'],
    ]);
  });
});

describe('readList', () => {
  it('refuses what is not a list, and lists longer than the limit', () => {
    const problems: Diagnostic[] = [];
    expect(readList('a', '/x', 2, problems, () => undefined)).toBeUndefined();
    expect(readList([1, 2, 3], '/y', 2, problems, (v) => ({ key: String(v), value: v }))).toEqual([1, 2, 3]);
    expect(problems.map((p) => [p.code, p.path])).toEqual([
      ['INVALID_TYPE', '/x'],
      ['LIST_TOO_LONG', '/y'],
    ]);
  });
});
