// loadWithRetries: a chunk that fails to arrive is fetched again after growing pauses; other faults are not.
import { describe, expect, it } from 'vitest';
import { isChunkLoadError, loadWithRetries } from './load-with-retries.ts';

const chunkError = () => new TypeError('Failed to fetch dynamically imported module: http://127.0.0.1/assets/page.js');

/** A loader that fails `failures` times with `error`, then answers 'page'; counts its calls. */
function flaky(failures: number, error: () => Error) {
  const calls = { count: 0 };
  const load = async () => {
    calls.count++;
    if (calls.count <= failures) throw error();
    return 'page';
  };
  return { calls, load };
}

describe('loadWithRetries', () => {
  it('answers once a try succeeds, having paused for each failure in turn', async () => {
    const slept: number[] = [];
    const { calls, load } = flaky(2, chunkError);
    const got = await loadWithRetries(load, [10, 20, 40], async (ms) => {
      slept.push(ms);
    });
    expect(got).toBe('page');
    expect(calls.count).toBe(3);
    expect(slept).toEqual([10, 20]);
  });

  it('throws the last chunk error once every pause is spent', async () => {
    const slept: number[] = [];
    const { calls, load } = flaky(10, chunkError);
    await expect(loadWithRetries(load, [1, 2], async (ms) => void slept.push(ms))).rejects.toThrow('Failed to fetch dynamically');
    expect(calls.count).toBe(3);
    expect(slept).toEqual([1, 2]);
  });

  it('never tries again after an error in the code itself', async () => {
    const { calls, load } = flaky(1, () => new ReferenceError('x is not defined'));
    await expect(loadWithRetries(load, [1, 2], async () => undefined)).rejects.toThrow('x is not defined');
    expect(calls.count).toBe(1);
  });
});

describe('isChunkLoadError', () => {
  it("knows each browser's words for a module that did not arrive", () => {
    expect(isChunkLoadError(chunkError())).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('Unable to preload CSS for /assets/a.css'))).toBe(true);
    expect(isChunkLoadError(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBe(false);
  });
});
