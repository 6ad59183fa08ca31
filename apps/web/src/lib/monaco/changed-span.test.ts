import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { changedSpan } from './changed-span.ts';

describe('changedSpan', () => {
  it('finds the digit typed into a field of a long sheet', () => {
    const before = 'rules:\n  - action: a\n    at_most: 3\n  - action: b\n';
    const after = 'rules:\n  - action: a\n    at_most: 35\n  - action: b\n';
    const { start, end } = changedSpan(before, after);
    expect(after.slice(start, after.length - end)).toBe('5');
    expect(before.slice(start, before.length - end)).toBe('');
  });

  it('is empty for equal texts and whole for texts with nothing in common', () => {
    expect(changedSpan('abc', 'abc')).toEqual({ start: 3, end: 0 });
    expect(changedSpan('abc', 'xyz')).toEqual({ start: 0, end: 0 });
  });

  it('never lets the prefix and suffix overlap (a repeated character typed)', () => {
    const { start, end } = changedSpan('aa', 'aaa');
    expect(start + end).toBeLessThanOrEqual(2);
    expect('aaa'.slice(start, 3 - end)).toBe('a');
  });

  it('always rebuilds the new text from the old one', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (before, after) => {
        const { start, end } = changedSpan(before, after);
        expect(start + end).toBeLessThanOrEqual(Math.min(before.length, after.length));
        const rebuilt = before.slice(0, start) + after.slice(start, after.length - end) + before.slice(before.length - end);
        expect(rebuilt).toBe(after);
      }),
    );
  });
});
