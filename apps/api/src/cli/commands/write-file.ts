// Atomic file writes for the CLI: a temp file beside the target, fsync, rename; never a partial file.
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CliError } from '../io.ts';

export function writeFileAtomic(file: string, text: string, force: boolean): void {
  if (!force && existsSync(file)) throw new CliError('FILE_EXISTS', `${file}: FILE_EXISTS: it exists; pass --force to replace it`);
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  try {
    const fd = openSync(temp, 'w', 0o644);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
  } catch (err) {
    rmSync(temp, { force: true });
    throw new CliError('UNWRITABLE', `${file}: UNWRITABLE: ${(err as NodeJS.ErrnoException).code ?? 'cannot write'}`);
  }
}

/**
 * Writes several files all or nothing: every temp file is written and synced first, then renamed into
 * place; if anything fails before the renames, no target is touched.
 */
export function writeFilesAtomic(dir: string, files: readonly { path: string; text: string }[]): void {
  const temps: string[] = [];
  try {
    mkdirSync(dir, { recursive: true });
    for (const f of files) {
      const temp = join(dirname(f.path), `.${basename(f.path)}.${process.pid}.tmp`);
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
      renameSync(temps[i] as string, f.path);
    });
  } catch (err) {
    for (const t of temps) rmSync(t, { force: true });
    throw new CliError('UNWRITABLE', `${dir}: UNWRITABLE: ${(err as NodeJS.ErrnoException).code ?? 'cannot write'}; nothing was written`);
  }
}
