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

  it('refuses a member named twice, where JSON.parse keeps the last', () => {
    const read = readPastedJson('{"tool": "read_order",\n "arguments": {"amount": "5000", "amount": "5"}}');
    expect(read).toMatchObject({ ok: false, why: 'inexact', problem: expect.stringMatching(/^line 2, column \d+: .*amount/) });
  });

  it('refuses a number JSON.parse would round', () => {
    expect(readPastedJson('{"amount": 12345678901234567890}')).toMatchObject({ ok: false, why: 'inexact' });
    expect(readPastedJson('{"amount": 1E2}')).toMatchObject({ ok: false, why: 'inexact' });
  });

  it('says where text stops being JSON', () => {
    expect(readPastedJson('{"tool":')).toMatchObject({
      ok: false,
      why: 'not_json',
      problem: expect.stringMatching(/^line 1, column \d+: /),
    });
  });
});
