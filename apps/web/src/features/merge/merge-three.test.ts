// mergeThree: separate changes combine, equal changes merge once, different changes to the same lines conflict.
import { describe, expect, it } from 'vitest';
import { CONFLICT_END, CONFLICT_MIDDLE, CONFLICT_START, hasConflictMarkers, mergeThree } from './merge-three.ts';

const lines = (...l: string[]) => l.join('\n');
const BASE = lines('{', '  "a": 1,', '  "b": 2,', '  "c": 3,', '  "d": 4', '}');

describe('mergeThree', () => {
  it('takes the side that changed when the other did not', () => {
    const changed = BASE.replace('"a": 1', '"a": 10');
    expect(mergeThree(BASE, changed, BASE)).toEqual({ text: changed, conflicts: 0 });
    expect(mergeThree(BASE, BASE, changed)).toEqual({ text: changed, conflicts: 0 });
  });

  it('combines changes to different lines, adjacent ones included', () => {
    const yours = BASE.replace('"b": 2', '"b": 20');
    const theirs = BASE.replace('"c": 3', '"c": 30').replace('"d": 4', '"d": 40');
    expect(mergeThree(BASE, yours, theirs)).toEqual({
      text: lines('{', '  "a": 1,', '  "b": 20,', '  "c": 30,', '  "d": 40', '}'),
      conflicts: 0,
    });
  });

  it('combines an insertion on one side with a deletion on the other', () => {
    const yours = lines('{', '  "a": 1,', '  "a2": 1.5,', '  "b": 2,', '  "c": 3,', '  "d": 4', '}');
    const theirs = lines('{', '  "a": 1,', '  "b": 2,', '  "d": 4', '}');
    expect(mergeThree(BASE, yours, theirs)).toEqual({
      text: lines('{', '  "a": 1,', '  "a2": 1.5,', '  "b": 2,', '  "d": 4', '}'),
      conflicts: 0,
    });
  });

  it('takes an identical change once', () => {
    const both = BASE.replace('"b": 2', '"b": 5');
    expect(mergeThree(BASE, both, both)).toEqual({ text: both, conflicts: 0 });
    const yours = both.replace('"d": 4', '"d": 8');
    expect(mergeThree(BASE, yours, both)).toEqual({ text: yours, conflicts: 0 });
  });

  it('marks different changes to the same line as a conflict, keeping both', () => {
    const yours = BASE.replace('"b": 2', '"b": 200');
    const theirs = BASE.replace('"b": 2', '"b": 300').replace('"d": 4', '"d": 40');
    const merged = mergeThree(BASE, yours, theirs);
    expect(merged.conflicts).toBe(1);
    expect(merged.text).toBe(
      lines('{', '  "a": 1,', CONFLICT_START, '  "b": 200,', CONFLICT_MIDDLE, '  "b": 300,', CONFLICT_END, '  "c": 3,', '  "d": 40', '}'),
    );
    expect(hasConflictMarkers(merged.text)).toBe(true);
    expect(hasConflictMarkers(BASE)).toBe(false);
  });

  it('marks two different insertions at one place as a conflict', () => {
    const yours = BASE.replace('  "d": 4', '  "x": 0,\n  "d": 4');
    const theirs = BASE.replace('  "d": 4', '  "y": 0,\n  "d": 4');
    const merged = mergeThree(BASE, yours, theirs);
    expect(merged.conflicts).toBe(1);
    expect(merged.text).toContain(lines(CONFLICT_START, '  "x": 0,', CONFLICT_MIDDLE, '  "y": 0,', CONFLICT_END, '  "d": 4'));
  });
});
