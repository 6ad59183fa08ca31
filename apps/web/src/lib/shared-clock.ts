// One clock for every relative time on screen: a single timer, started by the first reader and stopped with the last,
// so a table of a hundred times is one tick, not a hundred timers (docs/console.md, "Times").

/** How often relative words are looked at again; the finest unit shown past "now" changes no faster than this matters. */
export const TICK_MS = 15_000;

const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;
let now = Date.now();

function tick(): void {
  now = Date.now();
  for (const listener of listeners) listener();
}

/** A tab shown again catches up at once rather than at the next tick. */
function onVisible(): void {
  if (document.visibilityState === 'visible') tick();
}

/** Subscribes to the clock (as useSyncExternalStore takes it); answers the unsubscribe. */
export function subscribeClock(listener: () => void): () => void {
  listeners.add(listener);
  if (timer === undefined) {
    now = Date.now();
    timer = setInterval(tick, TICK_MS);
    document.addEventListener('visibilitychange', onVisible);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
      document.removeEventListener('visibilitychange', onVisible);
    }
  };
}

/** The clock's time at its last tick: every reader in one render sees the same now (read fresh while nobody ticks it). */
export function clockNow(): number {
  if (timer === undefined) now = Date.now();
  return now;
}
