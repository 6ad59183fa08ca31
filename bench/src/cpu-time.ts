// CPU time of processes and threads, for the api suite's CPU a request (docs/performance.md, "What the targets ask
// of two cores"): a throughput ratio says which contender served more, the CPU each spent says why, and whether the
// machine's two cores were the bound. Linux's /proc only (a process's or one thread's utime + stime, in the clock
// ticks of USER_HZ, 100 a second on every Linux this runs on); elsewhere nothing is measured and the suite says so.
import { readFileSync } from 'node:fs';

/** Microseconds of one clock tick of /proc's utime and stime (USER_HZ = 100). */
const TICK_MICROS = 10_000;

/** A /proc file's text; undefined where there is none (not Linux, or the process gone). */
function procText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** The CPU time, in µs, `stat` reports: utime + stime, the 14th and 15th fields (after the command's parentheses). */
function statMicros(path: string): number | undefined {
  const text = procText(path);
  if (text === undefined) return undefined;
  // The command name may hold spaces and parentheses; the fields after its last ')' are plain.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return Number.isFinite(utime) && Number.isFinite(stime) ? (utime + stime) * TICK_MICROS : undefined;
}

/** A process's CPU time, every thread of it, in µs; undefined where /proc cannot say. */
export function processCpuMicros(pid: number): number | undefined {
  return statMicros(`/proc/${pid}/stat`);
}

/** The CPU time of a Node process's main thread (its event loop) alone, in µs; undefined where /proc cannot say. */
export function eventLoopCpuMicros(pid = process.pid): number | undefined {
  return statMicros(`/proc/${pid}/task/${pid}/stat`);
}

/**
 * How long a Node process's main thread (its event loop) was runnable but waiting for a core, in µs: the second field
 * of its schedstat (nanoseconds). A single-threaded server that waits long has its core taken by another thread or
 * process (docs/performance.md, "Who takes the gate's core at c=16"); undefined where /proc cannot say.
 */
export function eventLoopWaitMicros(pid = process.pid): number | undefined {
  const waited = Number(procText(`/proc/${pid}/task/${pid}/schedstat`)?.split(' ')[1]);
  return Number.isFinite(waited) ? waited / 1000 : undefined;
}
