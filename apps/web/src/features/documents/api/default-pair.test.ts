// defaultPair: the previous and the running version, oldest-first history.
import { describe, expect, it } from 'vitest';
import { defaultPair } from './default-pair.ts';
import type { DocumentVersion } from './types.ts';

function version(sequence: number, running = false): DocumentVersion {
  const author = { kind: 'person' as const, label: 'Olive' };
  const stored = { digest: 'd', bytes: 1 };
  return {
    sequence,
    author,
    reason: 'r',
    based_on: null,
    created_at: '2026-01-01T00:00:00Z',
    running,
    rejected: false,
    problems: [],
    ...stored,
  };
}

describe('defaultPair', () => {
  it('answers nothing for an empty history', () => {
    expect(defaultPair([])).toBeNull();
  });
  it('compares the version before the running one with the running one', () => {
    expect(defaultPair([version(1), version(2, true), version(3)])).toEqual({ from: 1, to: 2 });
  });
  it('compares the running first version with itself', () => {
    expect(defaultPair([version(1, true), version(2)])).toEqual({ from: 1, to: 1 });
  });
  it('takes the newest when none runs', () => {
    expect(defaultPair([version(1), version(2)])).toEqual({ from: 1, to: 2 });
  });
});
