// Atomic writes: a temp file beside the target, fsync, rename, fsync the folder; a crash leaves either
// the old file or the new one, never half of one.
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

let counter = 0;

export function writeFileAtomic(path: string, data: string): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  const temp = join(dir, `.${basename(path)}.${process.pid}.${counter++}.tmp`);
  try {
    const fd = openSync(temp, 'w', 0o644);
    try {
      writeSync(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
  syncFolder(dir);
}

function syncFolder(dir: string): void {
  // A rename is durable once its folder is synced; some platforms cannot open a folder, which is fine.
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // best effort
  }
}

/** Is this a temp file left by writeFileAtomic (a crash between write and rename)? */
export function isTempFile(name: string): boolean {
  return /^\..+\.\d+\.\d+\.tmp$/.test(name);
}
