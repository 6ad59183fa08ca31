// The api suite's CPU a request (cpu-time.ts reads /proc): the CPU times a run is measured between, their growth a
// request, and the figures made of them at one concurrency, among them what the machine's cores allow the gate beside
// Cerbos (docs/performance.md, "What five times Cerbos asks of two cores").
import { availableParallelism } from 'node:os';
import { eventLoopCpuMicros, eventLoopWaitMicros, processCpuMicros } from './cpu-time.ts';
import { type Figure, figureOf } from './measure.ts';

/**
 * CPU µs (at a reading) or µs a request (between two): the serving process (for this process's servers, every thread
 * of it), its event loop alone, the load generator; and the µs its event loop waited for a core, runnable.
 */
export interface RunCpu {
  server?: number;
  eventLoop?: number;
  generator?: number;
  eventLoopWait?: number;
}

/** Whose CPU a target's requests cost: its own process (`tollgate serve`, Cerbos) or, with no pid, this one. */
export interface CpuTarget {
  pid?: number | undefined;
  /** Whether that process is Node's, whose event loop is its main thread. */
  node?: boolean;
}

/** The CPU times a run is measured between: the serving process, its event loop, the load generator; the loop's wait. */
export function cpuNow(target: CpuTarget, generatorPid: number | undefined): RunCpu {
  const cpu = process.cpuUsage();
  const server = target.pid === undefined ? cpu.user + cpu.system : processCpuMicros(target.pid);
  const loopPid = target.pid === undefined ? process.pid : target.node ? target.pid : undefined;
  const eventLoop = loopPid === undefined ? undefined : eventLoopCpuMicros(loopPid);
  const eventLoopWait = loopPid === undefined ? undefined : eventLoopWaitMicros(loopPid);
  const generator = generatorPid === undefined ? undefined : processCpuMicros(generatorPid);
  return {
    ...(server !== undefined ? { server } : {}),
    ...(eventLoop !== undefined ? { eventLoop } : {}),
    ...(generator !== undefined ? { generator } : {}),
    ...(eventLoopWait !== undefined ? { eventLoopWait } : {}),
  };
}

/** Each CPU time's growth between two readings, a request: µs. */
export function perRequest(before: RunCpu, after: RunCpu, requests: number): RunCpu {
  const out: RunCpu = {};
  for (const key of ['server', 'eventLoop', 'generator', 'eventLoopWait'] as const) {
    const a = before[key];
    const b = after[key];
    if (a !== undefined && b !== undefined && requests !== 0) out[key] = (b - a) / requests;
  }
  return out;
}

/**
 * What a request cost in CPU in `runs` (figures named `at`): the serving process (this one's servers share it, so its
 * every thread, the decision log's writer among them; Cerbos's own process), this process's event loop alone, and the
 * load generator, which shares the machine's cores with them (docs/performance.md, "What the targets ask of two
 * cores").
 */
export function cpuFigures(at: string, target: CpuTarget, runs: readonly { cpu: RunCpu }[]): Figure[] {
  const figures: Figure[] = [];
  const serving = target.pid === undefined ? "the servers' process, every thread" : 'its own process, every thread';
  const rows: Array<[keyof RunCpu, string]> = [
    ['server', `CPU a request, ${serving}`],
    ['eventLoop', 'CPU a request, the event loop alone'],
    ['generator', 'CPU a request, the load generator'],
    ['eventLoopWait', 'a request, the event loop runnable but waiting for a core'],
  ];
  for (const [key, label] of rows) {
    const values = runs.map((r) => r.cpu[key]).filter((v): v is number => v !== undefined);
    if (values.length > 0) figures.push(figureOf('api', `${at} ${label}`, 'µs', values));
  }
  return figures;
}

/**
 * What runs of the gate and of Cerbos at concurrency `c` say about the cores both share: the CPU Cerbos's process
 * spends a check over the CPU the gate's process (every thread) spends a call; and the most calls a second the
 * machine's cores could serve at the gate's CPU a call and its load generator's, were every core busy with nothing
 * else. Paired run by run, as the suite's ratios are.
 */
export function sharedCoreFigures(gate: readonly { cpu: RunCpu }[], cerbos: readonly { cpu: RunCpu }[], c: number): Figure[] {
  const cpuRatios = gate.flatMap(({ cpu: g }, i) => {
    const check = cerbos[i]?.cpu.server;
    return g.server && check ? [check / g.server] : [];
  });
  const cores = availableParallelism();
  const ceilings = gate.flatMap(({ cpu }) =>
    cpu.server !== undefined && cpu.generator !== undefined ? [(cores * 1_000_000) / (cpu.server + cpu.generator)] : [],
  );
  const figures: Figure[] = [];
  if (cpuRatios.length > 0) {
    figures.push(figureOf('api', `api CPU a check / CPU a decision: Cerbos's process / the gate's, c=${c}`, '×', cpuRatios, 'per run'));
  }
  if (ceilings.length > 0) {
    const figure = `api the ${cores} cores' ceiling for the gate: ${cores} s of CPU / (its CPU a call + its load generator's), c=${c}`;
    figures.push(figureOf('api', figure, 'calls/s', ceilings, 'per run'));
  }
  return figures;
}
