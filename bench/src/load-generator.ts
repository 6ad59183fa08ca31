// autocannon in a process of its own, so the load generator never competes with the servers it loads
// for their event loop or their process's heap and threads (docs/performance.md, "The api suite"). `startLoadGenerator`
// forks this file; each `load` sends one run's options over IPC and gets autocannon's result back. Every
// target is loaded by the same child with the same settings.
import { type ChildProcess, fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

interface Stat {
  average: number;
  p50: number;
  p99: number;
}

/** The part of autocannon's result the suite reads. */
export interface LoadResult {
  requests: Stat;
  latency: Stat;
  non2xx: number;
  errors: number;
  timeouts: number;
  duration: number;
}

/** Where a body says which session it is in; with `sessions`, each request names one of that many in turn. */
export const SESSION_SLOT = '{{session}}';

/** One autocannon run. */
export interface LoadOptions {
  /** Several URLs split the connections among them in turn. */
  url: string | string[];
  method: 'POST';
  headers: Record<string, string>;
  body: string;
  connections: number;
  duration: number;
  maxOverallRequests: number;
  /** Each request's body names the next of this many sessions (`bench-0`, `bench-1`, ...) in SESSION_SLOT. */
  sessions?: number;
}

type Autocannon = (options: LoadOptions) => Promise<LoadResult>;

type Reply = { id: number; result: LoadResult } | { id: number; error: string };

export interface LoadGenerator {
  /** The child's process id (its CPU time is read from /proc: cpu-time.ts). */
  readonly pid: number | undefined;
  load(options: LoadOptions): Promise<LoadResult>;
  stop(): Promise<void>;
}

/** Forks the load generator; it runs one autocannon run at a time, in order. */
export async function startLoadGenerator(): Promise<LoadGenerator> {
  // Under `npm run bench` process.execArgv carries tsx's loader, so the child runs this file the way this process
  // runs; under vitest (a suite's smoke test) it does not, and the child is given tsx's loader itself.
  const tsx = process.execArgv.some((a) => a.includes('tsx'))
    ? []
    : ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href];
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--load-generator'], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: [...process.execArgv, ...tsx],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`the load generator exited (${code}) before it was ready`)));
  });
  const pending = new Map<number, { resolve(r: LoadResult): void; reject(e: Error): void }>();
  child.on('message', (reply: Reply) => {
    const waiting = pending.get(reply.id);
    pending.delete(reply.id);
    if ('error' in reply) waiting?.reject(new Error(`autocannon: ${reply.error}`));
    else waiting?.resolve(reply.result);
  });
  child.once('exit', (code) => {
    for (const waiting of pending.values()) waiting.reject(new Error(`the load generator exited (${code})`));
    pending.clear();
  });
  let next = 0;
  return {
    pid: child.pid,
    load(options) {
      const id = next++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        child.send({ id, options });
      });
    },
    async stop() {
      if (child.connected) child.disconnect();
      await exited;
    },
  };
}

if (process.argv.includes('--load-generator') && process.send) {
  // autocannon ships no types; it is CommonJS.
  const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
  const send = process.send.bind(process);
  process.on('message', async ({ id, options }: { id: number; options: LoadOptions }) => {
    try {
      const r = await autocannon(withSessions(options));
      const result: LoadResult = {
        requests: { average: r.requests.average, p50: r.requests.p50, p99: r.requests.p99 },
        latency: { average: r.latency.average, p50: r.latency.p50, p99: r.latency.p99 },
        non2xx: r.non2xx,
        errors: r.errors,
        timeouts: r.timeouts,
        duration: r.duration,
      };
      send({ id, result });
    } catch (err) {
      send({ id, error: err instanceof Error ? err.message : String(err) });
    }
  });
  // Leaves once the suite disconnects.
  process.on('disconnect', () => process.exit(0));
  send({ ready: true });
}

/**
 * Options whose body names sessions in turn, so each session's calls are spread over the run (few of them in
 * flight at once) while a session's history still grows as an agent's would.
 */
function withSessions(options: LoadOptions): LoadOptions & { requests?: unknown[] } {
  const { sessions, ...rest } = options;
  if (sessions === undefined) return rest;
  let next = 0;
  const setupRequest = (request: { body?: string }) => {
    request.body = options.body.replace(SESSION_SLOT, `bench-${next++ % sessions}`);
    return request;
  };
  return { ...rest, requests: [{ setupRequest }] };
}
