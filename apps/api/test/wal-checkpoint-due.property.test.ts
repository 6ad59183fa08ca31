// When the WAL's checkpointer checkpoints (wal-checkpoint-due.ts), on generated counts: the writer's row counter is
// 32-bit and wraps (Atomics.add on an Int32Array), so the rows since the last checkpoint are read across the wrap as
// they are elsewhere; a failed checkpoint is retried on the next look whatever has come.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkpointDue, FEW_ROWS_WAIT_MS, ROWS_A_CHECKPOINT } from '../src/server/state/decisions/wal-checkpoint-due.ts';

/** The counter as the writer leaves it after adding `rows` to `from`: an Int32Array's wrapping sum. */
function counterAfter(from: number, rows: number): number {
  const counter = new Int32Array([from]);
  Atomics.add(counter, 0, rows);
  return counter[0] as number;
}

const int32 = fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
const waited = fc.oneof(fc.integer({ min: 0, max: 2 * FEW_ROWS_WAIT_MS }), fc.double({ min: 0, max: 10_000, noNaN: true }));

describe('when the checkpointer checkpoints', () => {
  it('is due once ROWS_A_CHECKPOINT rows have come, or fewer (but some) have waited FEW_ROWS_WAIT_MS, across the wrap', () => {
    fc.assert(
      fc.property(
        int32,
        // Near the threshold and anywhere up to half the counter's range (a checkpointer looks every few ms).
        fc.oneof(fc.integer({ min: 0, max: 2 * ROWS_A_CHECKPOINT }), fc.integer({ min: 0, max: 2 ** 31 - 1 })),
        waited,
        (atLast, rows, waitedMs) => {
          const expected = rows >= ROWS_A_CHECKPOINT || (rows > 0 && waitedMs >= FEW_ROWS_WAIT_MS);
          expect(checkpointDue(counterAfter(atLast, rows), atLast, waitedMs, false)).toBe(expected);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('is due on every look after a checkpoint failed, whatever has come since', () => {
    fc.assert(
      fc.property(int32, fc.integer({ min: 0, max: 2 ** 31 - 1 }), waited, (atLast, rows, waitedMs) => {
        expect(checkpointDue(counterAfter(atLast, rows), atLast, waitedMs, true)).toBe(true);
      }),
    );
  });

  it('is never due with nothing written, however long it waited', () => {
    fc.assert(
      fc.property(int32, waited, (atLast, waitedMs) => {
        expect(checkpointDue(atLast, atLast, waitedMs, false)).toBe(false);
      }),
    );
  });

  it('says so at the edges: the counter wrapping mid-count, and the thresholds themselves', () => {
    const top = 2 ** 31 - 1;
    expect(checkpointDue(counterAfter(top, ROWS_A_CHECKPOINT), top, 0, false)).toBe(true);
    expect(checkpointDue(counterAfter(top, ROWS_A_CHECKPOINT - 1), top, 0, false)).toBe(false);
    expect(checkpointDue(counterAfter(top, 1), top, FEW_ROWS_WAIT_MS, false)).toBe(true);
    expect(checkpointDue(counterAfter(top, 1), top, FEW_ROWS_WAIT_MS - 0.001, false)).toBe(false);
  });
});
