// Atomic file writes for the CLI: a temp file beside the target, fsync, rename; never a partial file.
import { closeSync, existsSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
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
