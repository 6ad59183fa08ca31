// Where the secret that seals the members' custodial keys comes from (docs/approver-keys.md, "The custodial keys
// at rest"): the operator's environment or a file they name, never the database. A data folder (the embedded
// default) makes its own secret file on its first start, beside the database, for an operator to move out; a shared
// PostgreSQL database needs the secret given, so every node seals and opens alike.
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, linkSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CustodialKeys, MIN_SECRET_LENGTH } from './state/members/custodial-keys.ts';

/** The data folder's own secret file, made on its first start when no secret is given. */
export const SECRET_FILE_NAME = 'member-key.secret';

/** Why no secret could be had: the code the CLI answers, and what to do. */
export class MemberKeySecretError extends Error {
  constructor(
    readonly code: 'MEMBER_KEY_SECRET_REQUIRED' | 'MEMBER_KEY_SECRET_UNREADABLE',
    message: string,
  ) {
    super(message);
  }
}

export interface SecretSources {
  env: Readonly<Record<string, string | undefined>>;
  /** --member-key-secret-file. */
  file?: string | undefined;
  /** The data folder, for the embedded default; absent for a shared database. */
  dataDir?: string | undefined;
}

/**
 * The custodial keys sealed with the secret the sources give: TOLLGATE_MEMBER_KEY_SECRET, else the file named by the
 * flag or TOLLGATE_MEMBER_KEY_SECRET_FILE, else the data folder's own file (made now if missing).
 *
 * @example
 * custodialKeysFor({ env: process.env, dataDir: '.tollgate-data' })
 */
export function custodialKeysFor(sources: SecretSources): CustodialKeys {
  return custodialSecretFor(sources).keys;
}

/** The keys of the secret the sources give, with where it came from (never the secret itself). */
export interface GivenSecret {
  keys: CustodialKeys;
  /** TOLLGATE_MEMBER_KEY_SECRET, or the path of the file it was read from. */
  from: string;
  /** The data folder's own file, when the secret is that one's (a rotation replaces it). */
  ownFile?: string;
}

/** custodialKeysFor, saying where the secret came from. */
export function custodialSecretFor(sources: SecretSources): GivenSecret {
  const given = sources.env.TOLLGATE_MEMBER_KEY_SECRET;
  if (given !== undefined && given !== '') return { keys: keysOf(given, 'TOLLGATE_MEMBER_KEY_SECRET'), from: 'TOLLGATE_MEMBER_KEY_SECRET' };
  const file = sources.file ?? (sources.env.TOLLGATE_MEMBER_KEY_SECRET_FILE || undefined);
  if (file !== undefined) return { keys: keysOf(readSecret(file), file), from: file };
  if (sources.dataDir === undefined) {
    throw new MemberKeySecretError(
      'MEMBER_KEY_SECRET_REQUIRED',
      'a shared database needs the secret that seals members’ signing keys: set TOLLGATE_MEMBER_KEY_SECRET or --member-key-secret-file FILE (the same on every node)',
    );
  }
  const own = join(sources.dataDir, SECRET_FILE_NAME);
  if (!existsSync(own)) makeSecretFile(own);
  return { keys: keysOf(readSecret(own), own), from: own, ownFile: own };
}

/**
 * The keys of the secret in `path`, read as every secret file is (surrounding whitespace and the final newline
 * dropped), at least MIN_SECRET_LENGTH characters; MemberKeySecretError (MEMBER_KEY_SECRET_UNREADABLE) otherwise.
 */
export function custodialKeysOfFile(path: string): CustodialKeys {
  return keysOf(readSecret(path), path);
}

/** A secret file written beside the one it replaces, put in its place by commit(), or removed by discard(). */
export interface StagedSecretFile {
  commit(): void;
  discard(): void;
}

/**
 * Writes `keys`' secret beside `path` now (a temp file readable by its owner only, synced), so that once the rows are
 * sealed anew only a rename is left: commit() renames it over `path` and syncs the folder, so a crash leaves the old
 * file or the new one, never a part.
 */
export function stageSecretFile(path: string, keys: CustodialKeys): StagedSecretFile {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeSync(fd, keys.secretFileText());
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw err;
  }
  closeSync(fd);
  return {
    commit() {
      renameSync(temp, path);
      const dir = openSync(dirname(path), 'r');
      try {
        fsyncSync(dir);
      } finally {
        closeSync(dir);
      }
    },
    discard() {
      rmSync(temp, { force: true });
    },
  };
}

/** A new secret, readable by its owner only, whole or not at all: linked into place, so of two racing starts one wins. */
function makeSecretFile(path: string): void {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temp, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(temp, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    rmSync(temp, { force: true });
  }
}

function readSecret(path: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch (err) {
    throw new MemberKeySecretError(
      'MEMBER_KEY_SECRET_UNREADABLE',
      `the member key secret file ${path} cannot be read (${(err as Error).message})`,
    );
  }
}

function keysOf(secret: string, from: string): CustodialKeys {
  if (secret.length < MIN_SECRET_LENGTH) {
    throw new MemberKeySecretError(
      'MEMBER_KEY_SECRET_UNREADABLE',
      `the member key secret from ${from} is ${secret.length} characters; it must be at least ${MIN_SECRET_LENGTH}`,
    );
  }
  return new CustodialKeys(secret);
}
