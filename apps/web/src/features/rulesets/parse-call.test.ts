// Unit tests of the run panel's call parser.
import { describe, expect, it } from 'vitest';
import { parseCall } from './parse-call.ts';

describe('parseCall', () => {
  it('reads a call with a tool and arguments', () => {
    expect(parseCall('{"tool":"issue_refund","arguments":{"amount":"50"}}')).toEqual({
      ok: true,
      call: { tool: 'issue_refund', arguments: { amount: '50' } },
    });
  });
  it('keeps history, contexts and confirmed', () => {
    const parsed = parseCall('{"tool":"t","arguments":null,"history":[{"tool":"a"}],"contexts":{},"confirmed":true}');
    expect(parsed.ok && parsed.call.confirmed).toBe(true);
  });
  it('refuses a duplicated member rather than send the last one', () => {
    const parsed = parseCall('{"tool":"issue_refund","arguments":{"amount":"5000","amount":"5"}}');
    expect(parsed).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^The call is not exact JSON: line 1, column \d+: DUPLICATE_MEMBER: /),
      place: { start: 52, end: 60 },
    });
  });
  it('says when the text is not JSON', () => {
    const parsed = parseCall('{"tool":');
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.message).toMatch(/^The call is not JSON: /);
  });
  it('refuses a list, a missing tool, missing arguments and unknown members, naming the member', () => {
    expect(parseCall('[]')).toEqual({ ok: false, message: 'The call must be a JSON object {"tool", "arguments"}.' });
    expect(parseCall('{"arguments":{}}')).toMatchObject({ ok: false, message: expect.stringContaining('tool must be a non-empty string') });
    expect(parseCall('{"tool":"t"}')).toMatchObject({ ok: false, message: expect.stringContaining('arguments is missing') });
    expect(parseCall('{"tool":"t","arguments":{},"args":1}')).toMatchObject({
      ok: false,
      message: expect.stringContaining('"args" is not part of a call'),
    });
    expect(parseCall('{"tool":"t","arguments":{},"confirmed":"yes"}')).toMatchObject({
      ok: false,
      message: expect.stringContaining('confirmed'),
    });
  });
});
