// Unit tests of reading pasted calls and summarising arguments.
import { describe, expect, it } from 'vitest';
import { parseCalls } from './parse-calls.ts';
import { summariseArguments, summariseRecorded } from './summarise.ts';

const tool = { name: 'issue_refund', action: 'refund.issue' };

describe('parseCalls', () => {
  it('reads an array of calls', () => {
    const parsed = parseCalls(
      JSON.stringify([
        { tool, arguments: { amount: '50' } },
        { tool, arguments: null },
      ]),
    );
    expect(parsed.ok && parsed.calls).toHaveLength(2);
  });

  it('refuses a duplicated member rather than send the last one', () => {
    const parsed = parseCalls('[{"tool":{"name":"t","action":"a","action":"b"},"arguments":{}}]');
    expect(parsed).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^The calls are not exact JSON: line 1, column \d+: DUPLICATE_MEMBER: /),
      place: { start: 34, end: 42 },
    });
  });

  it('refuses text that is not JSON', () => {
    const parsed = parseCalls('[{');
    expect(!parsed.ok && parsed.message).toMatch(/^The calls are not JSON/);
  });

  it('refuses an object and an empty array', () => {
    expect(parseCalls('{}')).toEqual({ ok: false, message: 'The calls must be a JSON array of {tool, arguments, expect?}.' });
    expect(parseCalls('[]')).toEqual({ ok: false, message: 'The calls are empty: paste at least one call.' });
  });

  it('names the first call at fault', () => {
    const text = JSON.stringify([
      { tool, arguments: {} },
      { tool: { name: 'x' }, arguments: {} },
    ]);
    expect(parseCalls(text)).toEqual({ ok: false, message: 'Call 2 tool.action must be a non-empty string.' });
    expect(parseCalls(JSON.stringify([{ tool }]))).toEqual({
      ok: false,
      message: 'Call 1 has no arguments (an object, or null when unknown).',
    });
  });
});

describe('summaries', () => {
  it('cuts long arguments', () => {
    expect(summariseArguments({ amount: '50' })).toBe('{"amount":"50"}');
    expect(summariseArguments({ note: 'x'.repeat(200) })).toHaveLength(80);
    expect(summariseArguments(null)).toBe('arguments unknown');
  });

  it('puts a recorded amount first', () => {
    expect(summariseRecorded({ call_id: 'c', amount: '200', currency: 'USD', arguments: { amount: '200' } })).toBe(
      '200 USD · {"amount":"200"}',
    );
    expect(summariseRecorded({ call_id: 'c', amount: null, currency: null })).toBe('arguments not shown');
  });
});
