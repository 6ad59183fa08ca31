// defaultPair: the running version against the newest candidate, else the two newest versions.
import fc from 'fast-check';
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
  it('compares the running first version with the saved second, not with itself', () => {
    expect(defaultPair([version(1, true), version(2)])).toEqual({ from: 1, to: 2 });
  });
  it('compares the running version with the newest of several candidates', () => {
    expect(defaultPair([version(1), version(2, true), version(3), version(4)])).toEqual({ from: 2, to: 4 });
  });
  it('compares the two newest when the newest runs', () => {
    expect(defaultPair([version(1), version(2), version(3, true)])).toEqual({ from: 2, to: 3 });
  });
  it('takes the two newest when none runs', () => {
    expect(defaultPair([version(1), version(2)])).toEqual({ from: 1, to: 2 });
  });
  it('compares a single version with itself', () => {
    expect(defaultPair([version(1, true)])).toEqual({ from: 1, to: 1 });
  });

  it('always ends at the newest version and starts at the running one when a candidate waits', () => {
    const histories = fc
      .uniqueArray(fc.integer({ min: 1, max: 60 }), { minLength: 1, maxLength: 12 })
      .chain((sequences) =>
        fc.record({ sequences: fc.constant(sequences), running: fc.option(fc.integer({ min: 0, max: sequences.length - 1 })) }),
      );
    fc.assert(
      fc.property(histories, ({ sequences, running }) => {
        const history = sequences.map((s, i) => version(s, i === running));
        const pair = defaultPair(history);
        const newest = Math.max(...sequences);
        const runs = running === null ? undefined : sequences[running];
        expect(pair?.to).toBe(newest);
        if (runs !== undefined && runs < newest) expect(pair?.from).toBe(runs);
        else {
          const older = sequences.filter((s) => s !== newest);
          expect(pair?.from).toBe(older.length === 0 ? newest : Math.max(...older));
        }
      }),
      { numRuns: 200 },
    );
  });
});
