// When the request being served arrived, for reads of the shared database that any request arriving before
// them may share (postgres-query.ts, TurnGenerations): a generation counter read after a request arrived
// answers every later question of that request, so a gate call reads the counters once, not once per step
// that asks (docs/performance.md, "The cluster suite"). Requests are numbered in arrival order; a read records
// the number of the last request arrived when it was sent.
import { AsyncLocalStorage } from 'node:async_hooks';

const arrival = new AsyncLocalStorage<number>();
let arrivals = 0;

/** Runs a request's handling (`serve`) numbered as the latest arrival. */
export function asArrived<T>(serve: () => T): T {
  arrivals++;
  return arrival.run(arrivals, serve);
}

/** The number of the request being served, or undefined outside one (a background task, the stdio gateway). */
export function arrivalOfRequest(): number | undefined {
  return arrival.getStore();
}

/** The number of the last request arrived: a read sent now comes after every request numbered up to it. */
export function lastArrival(): number {
  return arrivals;
}
