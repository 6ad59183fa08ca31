// The live indicator's logic: live while beats arrive, not live after two silent intervals or when the stream ends.
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SILENCE_LIMIT_MS, STREAM_HEARTBEAT_MS, watchLiveness } from './stream-liveness.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function watch() {
  const changes: boolean[] = [];
  let silences = 0;
  const liveness = watchLiveness(
    (live) => changes.push(live),
    () => {
      silences++;
    },
  );
  return { liveness, changes, silences: () => silences };
}

describe('watchLiveness', () => {
  it('waits two heartbeat intervals', () => {
    expect(SILENCE_LIMIT_MS).toBe(2 * STREAM_HEARTBEAT_MS);
  });

  it('is not live before the first beat, and live from it', () => {
    const { liveness, changes } = watch();
    expect(changes).toEqual([]);
    liveness.beat();
    expect(changes).toEqual([true]);
  });

  it('stays live while beats come every interval, reporting no change', () => {
    const { liveness, changes, silences } = watch();
    liveness.beat();
    for (let i = 0; i < 20; i++) {
      vi.advanceTimersByTime(STREAM_HEARTBEAT_MS);
      liveness.beat();
    }
    expect(changes).toEqual([true]);
    expect(silences()).toBe(0);
  });

  it('stays live when one beat is missed, and turns not live when two are', () => {
    const { liveness, changes, silences } = watch();
    liveness.beat();
    vi.advanceTimersByTime(SILENCE_LIMIT_MS - 1);
    expect(changes).toEqual([true]);
    vi.advanceTimersByTime(1);
    expect(changes).toEqual([true, false]);
    expect(silences()).toBe(1);
    // A beat after the silence (the reconnected stream's first bytes) makes it live again.
    liveness.beat();
    expect(changes).toEqual([true, false, true]);
  });

  it('is not live as soon as the stream ends, and hears no silence afterwards', () => {
    const { liveness, changes, silences } = watch();
    liveness.beat();
    liveness.end();
    expect(changes).toEqual([true, false]);
    vi.advanceTimersByTime(10 * SILENCE_LIMIT_MS);
    expect(silences()).toBe(0);
  });

  it('is live at any moment exactly when the last beat came less than the limit ago', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 3 * SILENCE_LIMIT_MS }), { minLength: 1, maxLength: 30 }), (gaps) => {
        const changes: boolean[] = [];
        const liveness = watchLiveness(
          (live) => changes.push(live),
          () => undefined,
        );
        let live = false;
        const current = () => (changes.length === 0 ? false : (changes[changes.length - 1] ?? false));
        liveness.beat();
        for (const gap of gaps) {
          vi.advanceTimersByTime(gap);
          live = gap < SILENCE_LIMIT_MS;
          expect(current()).toBe(live);
          liveness.beat();
          expect(current()).toBe(true);
        }
        liveness.end();
      }),
    );
  });
});
