// One piece of work several callers wait on (an upstream's connection, its listing), each for as long as its
// own bound allows: whoever started it, a caller's bound holds (docs/mcp.md, "Upstream timeouts"). Once every
// caller waiting has given up, the work is aborted.

export class SharedAttempt<T> {
  private readonly controller = new AbortController();
  private waiting = 0;
  private settled = false;
  private fulfilled = false;
  readonly promise: Promise<T>;
  /** What it gave, once it gave it. */
  value: T | undefined;

  constructor(run: (signal: AbortSignal) => Promise<T>) {
    this.promise = run(this.controller.signal);
    this.promise.then(
      (value) => {
        this.settled = true;
        this.fulfilled = true;
        this.value = value;
      },
      () => {
        this.settled = true;
      },
    );
  }

  /** Aborted because no one waited for it any more: a new caller starts it again. */
  get abandoned(): boolean {
    return this.controller.signal.aborted;
  }

  /** The result, or `onTimeout()` once `timeoutMs` passed (or `signal`'s reason once it aborted) first. */
  wait(timeoutMs: number, onTimeout: () => Error, signal?: AbortSignal): Promise<T> {
    // Done already (a connection made, a listing held): nothing to wait for, so no timer nor listener, which
    // every call of the gateway would otherwise set twice and clear.
    if (this.fulfilled) return Promise.resolve(this.value as T);
    this.waiting++;
    return new Promise<T>((resolve, reject) => {
      let left = false;
      const finish = (settle: () => void, givingUp: boolean) => {
        if (left) return;
        left = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.waiting--;
        if (givingUp && this.waiting === 0 && !this.settled) this.controller.abort();
        settle();
      };
      const onAbort = () => finish(() => reject(signal?.reason), true);
      const timer = setTimeout(() => finish(() => reject(onTimeout()), true), timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.promise.then(
        (value) => finish(() => resolve(value), false),
        (err: unknown) => finish(() => reject(err), false),
      );
    });
  }
}

/**
 * The attempt `kept` holds under `key`, or a new one `run` starts there when it holds none, the one it holds was
 * abandoned, or `anew`; a new one that fails is forgotten, so the next caller starts it again.
 *
 * @example
 * attemptIn(this.clients, name, (signal) => this.connect(name, signal)).wait(timeoutMs, () => new Error('slow'));
 */
export function attemptIn<K, T>(
  kept: Map<K, SharedAttempt<T>>,
  key: K,
  run: (signal: AbortSignal) => Promise<T>,
  anew = false,
): SharedAttempt<T> {
  const held = kept.get(key);
  if (held && !held.abandoned && !anew) return held;
  const started = new SharedAttempt(run);
  kept.set(key, started);
  started.promise.catch(() => {
    if (kept.get(key) === started) kept.delete(key);
  });
  return started;
}
