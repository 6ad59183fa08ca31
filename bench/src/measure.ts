// Timing helpers: warm up, repeat, report medians. Figures only; nothing here gates a test.

export interface Figure {
  suite: string;
  figure: string;
  unit: string;
  median: number;
  p95: number;
  runs: number;
}

export function median(values: number[]): number {
  return quantile(values, 0.5);
}

export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i] ?? Number.NaN;
}

/**
 * Runs `pass` (which decides every call of a stream once) `runs` times after `warmups`, and returns
 * decisions per second of each run and the per-decision time of each batch of `batch` calls.
 */
export function measureStream(count: number, decideOne: (i: number) => unknown, runs = 7, warmups = 2, batch = 1000) {
  const perSecond: number[] = [];
  const batchMicros: number[] = [];
  let sink = 0;
  for (let run = 0; run < warmups + runs; run++) {
    const start = process.hrtime.bigint();
    let batchStart = start;
    for (let i = 0; i < count; i++) {
      if (decideOne(i) !== undefined) sink++;
      if ((i + 1) % batch === 0 && run >= warmups) {
        const now = process.hrtime.bigint();
        batchMicros.push(Number(now - batchStart) / 1000 / batch);
        batchStart = now;
      }
    }
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    if (run >= warmups) perSecond.push(count / seconds);
  }
  if (sink < 0) throw new Error('unreachable');
  return { perSecond, batchMicros };
}
