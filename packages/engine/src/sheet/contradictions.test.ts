// Rules that contradict themselves are refused at their line, never resolved by a guess.
import { describe, expect, it } from 'vitest';
import { readSheet } from './read-sheet.ts';

function refusals(text: string): [number | undefined, string][] {
  const r = readSheet(text);
  return r.ok ? [] : r.problems.map((p) => [p.line, p.message]);
}

describe('contradictory rules', () => {
  it('refuses requires_confirmation: false beside confirmation words', () => {
    const got = refusals('rules:\n  - action: close_account\n    requires_confirmation: false\n    confirmation: "Close it?"\n');
    expect(got).toHaveLength(1);
    expect(got[0]?.[0]).toBe(3);
    expect(got[0]?.[1]).toContain('requires_confirmation: false beside confirmation words');
  });

  it('refuses an action that must run after itself, but not one that must not', () => {
    const after = refusals('rules:\n  - action: send_receipt\n    after: [send_receipt]\n');
    expect(after).toEqual([[3, 'after names `send_receipt` itself: its first call could never run']]);
    const notAfter = readSheet('rules:\n  - action: send_receipt\n    not_after: [send_receipt]\n');
    expect(notAfter.ok && notAfter.sheet.rules[0]?.not_after).toEqual(['send_receipt']);
  });

  it('refuses one tool both after and not after, at the not_after line', () => {
    const got = refusals('rules:\n  - action: ship\n    after: [pack]\n    not_after: [pack, cancel]\n');
    expect(got).toEqual([[4, '`pack` is in both after and not_after: the action could never run']]);
  });

  it('refuses a rule mapping that carries an anchor', () => {
    const got = refusals('rules:\n  - &r\n    action: ship\n    never: true\n');
    expect(got.map(([line]) => line)).toEqual([3]);
    expect(got[0]?.[1]).toContain('anchor');
  });
});
