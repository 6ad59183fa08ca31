// Timing helpers: warm up, repeat (at least five runs), quote medians and p95. Figures only; nothing
// here gates a test.

export interface Figure {
  suite: string;
  figure: string;
  unit: string;
  median: number;
  p95: number;
  runs: number;
  /** Set by run.ts on every entry of latest.json: the cpu, core count and Node version of the run. */
  machine?: string;
  /** Said beside the figure in the table: a checksum, a mismatch, what the figure covers. */
  note?: string;
}

/** The fewest runs any figure is quoted over (docs/performance.md, "The instrument": at least five runs). */
export const MIN_RUNS = 5;

export function median(values: number[]): number {
  return quantile(values, 0.5);
}

export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i] ?? Number.NaN;
}

/** A figure from repeated samples: their median and p95. */
export function figureOf(suite: string, figure: string, unit: string, values: number[], note?: string): Figure {
  const f: Figure = { suite, figure, unit, median: median(values), p95: quantile(values, 0.95), runs: values.length };
  if (note !== undefined) f.note = note;
  return f;
}

/** Per-run ratios a[i] / b[i] of two contenders measured in the same runs. */
export function ratios(a: number[], b: number[]): number[] {
  return a.slice(0, Math.min(a.length, b.length)).map((x, i) => x / (b[i] as number));
}

/**
 * Runs `pass` (which decides every call of a stream once) `runs` times after `warmups`, and returns
 * decisions per second of each run and the per-decision time of each batch of `batch` calls.
 */
export function measureStream(count: number, decideOne: (i: number) => unknown, runs = 7, warmups = 2, batch = 1000) {
  const perSecond: number[] = [];
  const batchMicros: number[] = [];
  for (let run = 0; run < warmups + runs; run++) {
    const r = timePass(count, decideOne, batch);
    if (run >= warmups) {
      perSecond.push(r.perSecond);
      batchMicros.push(...r.batchMicros);
    }
  }
  return { perSecond, batchMicros };
}

/**
 * Times two contenders over the same `count` items: two warm-up passes of each, then `runs` runs in which
 * they take turns, so each run's ratio compares like with like. Per contender: passes per second of each
 * run and the per-item time of each batch.
 */
export function interleavedRuns(count: number, a: (i: number) => unknown, b: (i: number) => unknown, runs = 7) {
  for (let w = 0; w < 2; w++) {
    timePass(count, a);
    timePass(count, b);
  }
  const out = [0, 1].map(() => ({ perSecond: [] as number[], batchMicros: [] as number[] }));
  for (let run = 0; run < runs; run++) {
    [a, b].forEach((one, k) => {
      const r = timePass(count, one);
      out[k]?.perSecond.push(r.perSecond);
      out[k]?.batchMicros.push(...r.batchMicros);
    });
  }
  return { a: out[0] as { perSecond: number[]; batchMicros: number[] }, b: out[1] as { perSecond: number[]; batchMicros: number[] } };
}

let sink = 0;

/** One timed pass over `count` calls: decisions per second and the mean µs per call of each batch. */
export function timePass(count: number, decideOne: (i: number) => unknown, batch = 1000) {
  const batchMicros: number[] = [];
  const start = process.hrtime.bigint();
  let batchStart = start;
  for (let i = 0; i < count; i++) {
    if (decideOne(i) !== undefined) sink++;
    if ((i + 1) % batch === 0) {
      const now = process.hrtime.bigint();
      batchMicros.push(Number(now - batchStart) / 1000 / batch);
      batchStart = now;
    }
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (sink < 0) throw new Error('unreachable');
  return { perSecond: count / seconds, batchMicros };
}

/**
 * A checksum over a sequence of decisions (FNV-1a, 32 bits, over one letter per decision: A allow,
 * R require_approval, D deny), so two deciders that agree on every call print the same eight hex digits.
 */
export function decisionChecksum(decisions: Iterable<string>): string {
  let h = 0x811c9dc5;
  for (const d of decisions) {
    const letter = d === 'allow' ? 65 : d === 'require_approval' ? 82 : d === 'deny' ? 68 : 63;
    h = Math.imul(h ^ letter, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}
