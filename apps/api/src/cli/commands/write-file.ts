// Atomic file writes for the CLI: a temp file beside the target, fsync, rename; never a partial file.
import { closeSync, existsSync, fsyncSync, lstatSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { writeFileAtomic } from '@tollgate/store';
import { CliError } from '../io.ts';

/**
 * Writes a file a command was asked to make (`--out`), atomically (the store's writeFileAtomic): an existing
 * file is kept unless `force`, and a write that fails is UNWRITABLE with nothing left behind.
 */
export function writeOutputFile(file: string, text: string, force: boolean): void {
  if (!force && existsSync(file)) throw new CliError('FILE_EXISTS', `${file}: FILE_EXISTS: it exists; pass --force to replace it`);
  try {
    writeFileAtomic(file, text);
  } catch (err) {
    throw new CliError('UNWRITABLE', `${file}: UNWRITABLE: ${(err as NodeJS.ErrnoException).code ?? 'cannot write'}`);
  }
}

/**
 * Writes several files all or nothing: every temp file is written and synced first; each existing
 * target is set aside before its replacement is renamed in; if any step fails, every replaced target is
 * put back and every new one removed, so the folder is as it was. Each of `remove` that exists is set
 * aside the same way and deleted only once every write is in.
 */
export function writeFilesAtomic(dir: string, files: readonly { path: string; text: string }[], remove: readonly string[] = []): void {
  const suffix = `${process.pid}.${Date.now()}`;
  const temps: string[] = [];
  const installed: { path: string; backup?: string }[] = [];
  try {
    mkdirSync(dir, { recursive: true });
    for (const path of [...files.map((f) => f.path), ...remove]) {
      if (existsSync(path) && !lstatSync(path).isFile()) throw Object.assign(new Error('not a file'), { code: 'EISDIR' });
    }
    for (const f of files) {
      const temp = join(dirname(f.path), `.${basename(f.path)}.${suffix}.tmp`);
      temps.push(temp);
      const fd = openSync(temp, 'w', 0o644);
      try {
        writeSync(fd, f.text);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    }
    files.forEach((f, i) => {
      const entry: { path: string; backup?: string } = { path: f.path };
      if (existsSync(f.path)) {
        entry.backup = join(dirname(f.path), `.${basename(f.path)}.${suffix}.bak`);
        renameSync(f.path, entry.backup);
      }
      installed.push(entry);
      renameSync(temps[i] as string, f.path);
    });
    for (const path of remove) {
      if (!existsSync(path)) continue;
      const backup = join(dirname(path), `.${basename(path)}.${suffix}.bak`);
      renameSync(path, backup);
      // Put back on failure (the entry's path has no new file: rmSync of it is a no-op).
      installed.push({ path, backup });
    }
  } catch (err) {
    for (const entry of installed.reverse()) {
      rmSync(entry.path, { force: true });
      if (entry.backup) renameSync(entry.backup, entry.path);
    }
    for (const t of temps) rmSync(t, { force: true });
    throw new CliError('UNWRITABLE', `${dir}: UNWRITABLE: ${(err as NodeJS.ErrnoException).code ?? 'cannot write'}; nothing was written`);
  }
  for (const entry of installed) if (entry.backup) rmSync(entry.backup, { force: true });
}
