// A lock file that makes two processes on one host safe: created exclusively, holding the owner's pid;
// a lock whose owner is gone is taken over. Held only across synchronous work, never across an await.
import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { StoreError } from './types.ts';

const WAIT = new Int32Array(new SharedArrayBuffer(4));

export class FileLock {
  private readonly path: string;
  private readonly timeoutMs: number;

  constructor(path: string, timeoutMs = 10_000) {
    this.path = path;
    this.timeoutMs = timeoutMs;
  }

  /** Runs `work` holding the lock. */
  hold<T>(work: () => T): T {
    this.acquire();
    try {
      return work();
    } finally {
      rmSync(this.path, { force: true });
    }
  }

  private acquire(): void {
    const deadline = Date.now() + this.timeoutMs;
    for (let attempt = 0; ; attempt++) {
      try {
        const fd = openSync(this.path, 'wx', 0o644);
        writeSync(fd, String(process.pid));
        closeSync(fd);
        return;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      if (this.ownerIsGone()) {
        rmSync(this.path, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new StoreError('locked', `the store is locked by another process (${this.path})`);
      Atomics.wait(WAIT, 0, 0, Math.min(20, 1 + attempt));
    }
  }

  private ownerIsGone(): boolean {
    let pid: number;
    try {
      pid = Number(readFileSync(this.path, 'utf8'));
    } catch {
      return false;
    }
    // An empty lock file is one being written right now, or one whose writer died before writing its pid.
    if (!Number.isInteger(pid) || pid <= 0) {
      try {
        return Date.now() - statSync(this.path).mtimeMs > 2000;
      } catch {
        return false;
      }
    }
    // Our own pid: work under the lock is synchronous, so no live holder in this process can exist.
    if (pid === process.pid) return true;
    try {
      process.kill(pid, 0);
      return false;
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === 'ESRCH';
    }
  }
}
