// The data folder a command names with --data: a command that writes creates it (as serve does), one that only
// reads refuses a folder that is not there. Either way a path that cannot be a folder is one line with a code
// and exit 2, never an internal error (docs/cli.md, exit codes).
import { mkdirSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ignoreInGit } from '../server/ignore-in-git.ts';
import { CliError } from './io.ts';

/** The folder, created with its .gitignore when it is not there yet. */
export function dataFolderToWrite(path: string, command: string): string {
  const dir = resolve(path);
  if (kindOf(dir) === 'other') throw notAFolder(dir, command);
  try {
    mkdirSync(dir, { recursive: true });
    ignoreInGit(dir);
  } catch (err) {
    const why = (err as { code?: string }).code ?? (err as Error).message;
    throw new CliError('UNWRITABLE', `tollgate ${command}: UNWRITABLE: the data folder ${dir} cannot be made (${why})`);
  }
  return dir;
}

/** The folder, which must be there already: a command that only reads never makes an empty workspace. */
export function existingDataFolder(path: string, command: string): string {
  const dir = resolve(path);
  const kind = kindOf(dir);
  if (kind === 'missing') throw new CliError('DATA_MISSING', `tollgate ${command}: DATA_MISSING: there is no data folder at ${dir}`);
  if (kind === 'other') throw notAFolder(dir, command);
  return dir;
}

function kindOf(dir: string): 'missing' | 'folder' | 'other' {
  try {
    return statSync(dir).isDirectory() ? 'folder' : 'other';
  } catch (err) {
    return (err as { code?: string }).code === 'ENOENT' ? 'missing' : 'other';
  }
}

function notAFolder(dir: string, command: string): CliError {
  return new CliError('UNREADABLE', `tollgate ${command}: UNREADABLE: ${dir} is not a folder`);
}
