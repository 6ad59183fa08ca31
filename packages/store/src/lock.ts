// A lock file that makes two processes on one host safe: created exclusively, holding the owner's pid.
// Waiting for it never blocks the event loop (docs/store.md, "The lock"): it is polled with timers, up to
// a bound, after which the write is refused as `locked` and the caller may retry. A lock whose owner is
// gone is taken over under a second, short-lived takeover file, so two processes never both take it.
// The work done under the lock is synchronous, never across an await.
import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { StoreError } from './types.ts';

/** How long a write waits for the lock unless told (docs/store.md). */
export const DEFAULT_LOCK_TIMEOUT_MS = 3000;

export class FileLock {
  readonly path: string;
  private readonly timeoutMs: number;

  constructor(path: string, timeoutMs = DEFAULT_LOCK_TIMEOUT_MS) {
    this.path = path;
    this.timeoutMs = timeoutMs;
  }

  /** Runs `work` holding the lock, waiting for it (asynchronously) at most the timeout (or `waitMs`). */
  async hold<T>(work: () => T, waitMs = this.timeoutMs): Promise<T> {
    const deadline = Date.now() + waitMs;
    for (let attempt = 0; ; attempt++) {
      if (this.tryHold()) {
        try {
          return work();
        } finally {
          rmSync(this.path, { force: true });
        }
      }
      if (Date.now() >= deadline) {
        throw new StoreError('locked', `the store is locked by another process (${this.path}); nothing was written, try again shortly`);
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(50, 2 + attempt * 2)));
    }
  }

  /** Takes the lock if it is free or its owner is gone; false while a live process holds it. */
  private tryHold(): boolean {
    if (createExclusive(this.path)) return true;
    const seen = readOwner(this.path);
    if (seen === undefined || !ownerIsGone(seen.pid, seen.mtimeMs)) return false;
    // Taking over: only the process that creates the takeover file may remove the stale lock, and only
    // if it is still the one it saw (same inode), so a fresh lock made meanwhile is never removed.
    const takeover = `${this.path}.takeover`;
    if (!createExclusive(takeover)) {
      const other = readOwner(takeover);
      if (other !== undefined && ownerIsGone(other.pid, other.mtimeMs)) rmSync(takeover, { force: true });
      return false;
    }
    try {
      const now = readOwner(this.path);
      if (now === undefined || now.ino === seen.ino) rmSync(this.path, { force: true });
      return createExclusive(this.path);
    } finally {
      rmSync(takeover, { force: true });
    }
  }
}

function createExclusive(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o644);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    writeSync(fd, String(process.pid));
  } finally {
    closeSync(fd);
  }
  return true;
}

function readOwner(path: string): { pid: number; ino: number; mtimeMs: number } | undefined {
  try {
    const stat = statSync(path);
    return { pid: Number(readFileSync(path, 'utf8')), ino: stat.ino, mtimeMs: stat.mtimeMs };
  } catch {
    return undefined;
  }
}

function ownerIsGone(pid: number, mtimeMs: number): boolean {
  // An empty lock file is one being written right now, or one whose writer died before writing its pid.
  if (!Number.isInteger(pid) || pid <= 0) return Date.now() - mtimeMs > 2000;
  // Our own pid: work under the lock is synchronous, so no live holder in this process can exist.
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
