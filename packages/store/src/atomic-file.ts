// Atomic writes: a temp file beside the target, fsync, rename, fsync the folder; a crash leaves either
// the old file or the new one, never half of one. A version file is written once: its temp file is
// linked into place, which fails rather than replace a file already there (docs/store.md, "Invariants").
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

let counter = 0;

export function writeFileAtomic(path: string, data: string): void {
  const dir = dirname(path);
  const temp = writeTemp(path, data);
  try {
    renameSync(temp, path);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
  syncFolder(dir);
}

/**
 * Writes a file that must not exist yet (a version file): temp file, fsync, then a hard link to the
 * target, which fails with EEXIST instead of replacing what is there.
 */
export function writeFileOnce(path: string, data: string): void {
  const temp = writeTemp(path, data);
  try {
    linkSync(temp, path);
  } finally {
    rmSync(temp, { force: true });
  }
  syncFolder(dirname(path));
}

function writeTemp(path: string, data: string): string {
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
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
  return temp;
}

/** Moves a file or folder (a rename, synced), creating the target's folder. */
export function moveAside(from: string, to: string): void {
  mkdirSync(dirname(to), { recursive: true });
  renameSync(from, to);
  syncFolder(dirname(to));
  syncFolder(dirname(from));
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
