// Pasted JSON is read by the engine's exact reader, as the server reads bodies: what JSON.parse would quietly
// normalise (a member named twice, a number it rounds) is refused with its place.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readPastedJson } from './read-pasted-json.ts';

describe('readPastedJson', () => {
  it('reads plain JSON to the value JSON.parse gives', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), (v) => {
        // Safe integers and strings only: what a pasted call holds exactly.
        const text = JSON.stringify(v, (_k, x) =>
          typeof x === 'number' ? (Number.isSafeInteger(x) && !Object.is(x, -0) ? x : String(x)) : x,
        );
        expect(readPastedJson(text)).toEqual({ ok: true, value: JSON.parse(text) });
      }),
    );
  });

  it('refuses a member named twice, where JSON.parse keeps the last, with the code and place the server gives', () => {
    const text = '{"tool": "read_order",\n "arguments": {"amount": "5000", "amount": "5"}}';
    const read = readPastedJson(text);
    expect(read).toMatchObject({
      ok: false,
      why: 'inexact',
      code: 'DUPLICATE_MEMBER',
      problem: expect.stringMatching(/^line 2, column 34: DUPLICATE_MEMBER: member "amount"/),
    });
    // The place is the second "amount", where the person typed it.
    const place = !read.ok ? read.place : undefined;
    expect(place && text.slice(place.start, place.end)).toBe('"amount"');
    expect(place?.start).toBe(text.lastIndexOf('"amount"'));
  });

  it('refuses a number JSON.parse would round, a big decimal among them, placed on its digits', () => {
    expect(readPastedJson('{"amount": 12345678901234567890}')).toMatchObject({ ok: false, why: 'inexact', code: 'INEXACT_NUMBER' });
    expect(readPastedJson('{"amount": 1E2}')).toMatchObject({ ok: false, why: 'inexact', code: 'INEXACT_NUMBER' });
    const text = '[{"arguments": {"amount": 98765432109876543210.123456789}}]';
    const read = readPastedJson(text);
    expect(read).toMatchObject({
      ok: false,
      code: 'INEXACT_NUMBER',
      problem: expect.stringMatching(/^line 1, column 27: INEXACT_NUMBER: /),
    });
    const place = !read.ok ? read.place : undefined;
    expect(place && text.slice(place.start, place.end)).toBe('98765432109876543210.123456789');
    // JSON.parse would have sent another number.
    expect(String(JSON.parse(text)[0].arguments.amount)).not.toBe('98765432109876543210.123456789');
  });

  it('says where text stops being JSON, with the code the server answers (INVALID_JSON)', () => {
    const read = readPastedJson('[\n  {"tool": }');
    expect(read).toMatchObject({
      ok: false,
      why: 'not_json',
      code: 'INVALID_JSON',
      problem: expect.stringMatching(/^line 2, column 12: INVALID_JSON: value expected/),
      place: { start: 13, end: 14 },
    });
  });
});
