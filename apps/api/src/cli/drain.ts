// How `tollgate serve` stops on SIGTERM or SIGINT (docs/api.md, "Stopping the server"): readiness fails first
// (GET /v1/health/ready answers 503 naming `draining`, server/health/readiness.ts); with a drain delay the server
// goes on accepting and answering for that long, so a load balancer polling readiness moves traffic away before
// any connection is refused (a second signal ends the delay). Then the listener closes so no new connection is
// accepted, event streams end and idle keep-alive connections close (and each one that goes idle after its
// answer, so a finished call does not hold the stop); requests in flight, held calls' waits among them, finish
// for up to the drain timeout, after which their connections are cut. Then the context closes: the
// node leaves the registry (its row deleted), the decision log is written, the database closed.
import type { Server as HttpServer } from 'node:http';
import type { AppContext } from '../server/context.ts';
import type { Drain } from '../server/health/readiness.ts';
import { CliError } from './io.ts';

/** How long requests in flight may finish once a stop begins, unless --drain-timeout or TOLLGATE_DRAIN_TIMEOUT say. */
export const DEFAULT_DRAIN_SECONDS = 10;

/** How often connections gone idle during a drain are closed. */
const IDLE_SWEEP_MS = 50;

/** `--name`, else the variable, in whole seconds from 0; `fallback` unless given. A bad value is a USAGE error. */
function wholeSecondsOf(
  name: string,
  variable: string,
  flag: string | undefined,
  env: Record<string, string | undefined>,
  fallback: number,
): number {
  const text = flag ?? (env[variable] === '' ? undefined : env[variable]);
  if (text === undefined) return fallback;
  if (!/^[0-9]{1,5}$/.test(text)) throw new CliError('USAGE', `--${name} is a whole number of seconds from 0, got ${text}`);
  return Number(text);
}

/** --drain-timeout, else TOLLGATE_DRAIN_TIMEOUT, in whole seconds from 0; DEFAULT_DRAIN_SECONDS unless given. */
export function drainSecondsOf(flag: string | undefined, env: Record<string, string | undefined> = process.env): number {
  return wholeSecondsOf('drain-timeout', 'TOLLGATE_DRAIN_TIMEOUT', flag, env, DEFAULT_DRAIN_SECONDS);
}

/** --drain-delay, else TOLLGATE_DRAIN_DELAY, in whole seconds from 0; 0 (no delay) unless given. */
export function drainDelaySecondsOf(flag: string | undefined, env: Record<string, string | undefined> = process.env): number {
  return wholeSecondsOf('drain-delay', 'TOLLGATE_DRAIN_DELAY', flag, env, 0);
}

/**
 * Fails readiness and waits `delayMs` while the server still answers; resolves early when `cut` is called (a
 * second signal).
 */
export function failReadinessFor(drain: Drain, delayMs: number): { waited: Promise<void>; cut: () => void } {
  drain.draining = true;
  let cut = () => {};
  const waited = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, delayMs);
    cut = () => {
      clearTimeout(timer);
      resolve();
    };
  });
  return { waited, cut: () => cut() };
}

/**
 * Drains the server and closes the context; resolves once both are done, within `graceMs` plus the context's
 * close (the decision log's last write).
 */
export async function drainAndClose(server: HttpServer, ctx: AppContext, drain: Drain, graceMs: number): Promise<void> {
  drain.draining = true;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  ctx.events.close();
  server.closeIdleConnections();
  const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
  const cut = setTimeout(() => server.closeAllConnections(), graceMs);
  try {
    await closed;
  } finally {
    clearInterval(sweep);
    clearTimeout(cut);
  }
  await ctx.close();
}
