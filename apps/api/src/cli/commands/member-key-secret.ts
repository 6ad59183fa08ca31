// tollgate member-key-secret rotate: every custodial key and webhook signing secret sealed anew with a new member key
// secret, in one transaction on the data folder's tollgate.db or the PostgreSQL database nodes share (docs/cli.md,
// docs/approver-keys.md "The custodial keys at rest"). Neither secret is ever printed: only where each came from.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { FileLock, StoreError } from '@tollgate/store';
import {
  custodialKeysOfFile,
  custodialSecretFor,
  type GivenSecret,
  MemberKeySecretError,
  SECRET_FILE_NAME,
  type StagedSecretFile,
  stageSecretFile,
} from '../../server/member-key-secret.ts';
import { openDatabase } from '../../server/state/db.ts';
import { type CustodialKeys, SecretMismatchError } from '../../server/state/members/custodial-keys.ts';
import { NodesRunningError, RotationConflictError, type RotationCounts } from '../../server/state/secret-rotation/model.ts';
import { rotatePostgres } from '../../server/state/secret-rotation/postgres.ts';
import { rotateSqlite } from '../../server/state/secret-rotation/sqlite.ts';
import { existingDataFolder } from '../data-folder.ts';
import { CliError, type CliIo, EXIT_INVALID, EXIT_OK, EXIT_UNREADABLE } from '../io.ts';
import { openCurrentDatabase } from '../open-database.ts';
import { databaseOf, type ParsedOptions } from '../options.ts';

const COMMAND = 'member-key-secret rotate';

export async function memberKeySecretRotate(rest: string[], options: ParsedOptions, io: CliIo): Promise<number> {
  if (rest.length > 0) throw new CliError('USAGE', `${COMMAND} takes no argument, got ${rest.join(' ')}`);
  const newFile = options['new-secret-file'];
  if (newFile === undefined) throw new CliError('USAGE', 'missing --new-secret-file FILE');
  const url = databaseOf(options);
  if (url === undefined && !options.data) throw new CliError('USAGE', 'missing --data DIR (or --database URL)');
  // A data folder's nodes are on this host: its registry refuses while one runs, and there is nothing to force.
  if (url === undefined && options.force) throw new CliError('USAGE', '--force is for --database only');
  const dir = url === undefined ? existingDataFolder(options.data as string, COMMAND) : undefined;
  const next = secretOf(() => custodialKeysOfFile(newFile));
  if (dir !== undefined) requireOwnSecretOrGiven(dir, options);
  const current = secretOf(() => custodialSecretFor({ env: process.env, file: options['member-key-secret-file'], dataDir: dir }));
  if (current.keys.sameSecretAs(next)) {
    throw new CliError(
      'MEMBER_KEY_SECRET_UNCHANGED',
      `tollgate ${COMMAND}: MEMBER_KEY_SECRET_UNCHANGED: the secret in ${newFile} is the one in use (from ${current.from}); nothing was written`,
      EXIT_INVALID,
    );
  }
  const counts = await refusalsMapped(url !== undefined, () =>
    dir === undefined ? rotateOnDatabase(url as string, current.keys, next, options.force === true) : rotateOnFolder(dir, current, next),
  );
  const replaced = dir !== undefined && current.ownFile !== undefined ? current.ownFile : null;
  if (options.json) {
    io.stdout.write(
      `${JSON.stringify({ ...counts, current_secret_from: current.from, new_secret_from: newFile, secret_file_replaced: replaced }, null, 2)}\n`,
    );
  } else {
    io.stdout.write(
      `sealed anew with the secret in ${newFile}: ${counts.keys} custodial keys, ${counts.webhook_secrets} webhook secrets\n`,
    );
    io.stdout.write(
      replaced !== null
        ? `${replaced} now holds the new secret (mode 0600)\n`
        : `the current secret came from ${current.from}: give every node the new secret before it starts again; a node given the old one refuses to start (MEMBER_KEY_SECRET_MISMATCH)\n`,
    );
  }
  return EXIT_OK;
}

/** The data folder's rotation, under the folder store's lock; its own secret file replaced only once the rows are. */
async function rotateOnFolder(dir: string, current: GivenSecret, next: CustodialKeys): Promise<RotationCounts> {
  // The folder store's lock (its default place, documents/.tollgate/lock): no other command writes the folder meanwhile.
  const stateRoot = join(dir, 'documents', '.tollgate');
  mkdirSync(stateRoot, { recursive: true });
  const staged: StagedSecretFile | undefined = current.ownFile === undefined ? undefined : stageSecretFile(current.ownFile, next);
  try {
    return await new FileLock(join(stateRoot, 'lock')).hold(() => {
      const db = openDatabase(join(dir, 'tollgate.db'));
      let counts: RotationCounts;
      try {
        counts = rotateSqlite(db, current.keys, next);
      } finally {
        db.close();
      }
      if (staged !== undefined) replaceOwnFile(staged, current.ownFile as string);
      return counts;
    });
  } finally {
    // After a commit the temp file is renamed away: removing it then removes nothing.
    staged?.discard();
  }
}

/**
 * The folder's own secret file replaced after the commit; should the rename fail, the rows are sealed with the new
 * secret already, so the operator is told to put it there by hand (and the process never exits as if all were done).
 */
function replaceOwnFile(staged: StagedSecretFile, ownFile: string): void {
  try {
    staged.commit();
  } catch (err) {
    const why = (err as { code?: string }).code ?? (err as Error).message;
    throw new CliError(
      'UNWRITABLE',
      `tollgate ${COMMAND}: UNWRITABLE: every key and webhook secret is sealed with the new secret, but ${ownFile} could not be replaced (${why}): copy the new secret file over it (mode 0600) before the next start`,
    );
  }
}

async function rotateOnDatabase(url: string, current: CustodialKeys, next: CustodialKeys, force: boolean): Promise<RotationCounts> {
  const pool = await openCurrentDatabase(url, COMMAND);
  try {
    return await rotatePostgres(pool, current, next, { force });
  } finally {
    await pool.end();
  }
}

/**
 * On a data folder with no secret given, its own file must be there: the rotation never makes a secret of its own
 * (as a start does) only to find it opens nothing.
 */
function requireOwnSecretOrGiven(dir: string, options: ParsedOptions): void {
  const given = process.env.TOLLGATE_MEMBER_KEY_SECRET || options['member-key-secret-file'] || process.env.TOLLGATE_MEMBER_KEY_SECRET_FILE;
  if (given || existsSync(join(dir, SECRET_FILE_NAME))) return;
  throw new CliError(
    'MEMBER_KEY_SECRET_REQUIRED',
    `tollgate ${COMMAND}: MEMBER_KEY_SECRET_REQUIRED: ${dir} holds no ${SECRET_FILE_NAME} and no secret is given (TOLLGATE_MEMBER_KEY_SECRET or --member-key-secret-file FILE): give the one in use`,
  );
}

/** A secret that cannot be had: its code, exit 2 (unreadable input). */
function secretOf<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof MemberKeySecretError) throw new CliError(err.code, `tollgate ${COMMAND}: ${err.code}: ${err.message}`);
    throw err;
  }
}

/**
 * The rotation's refusals, each with its code: nothing was written. Exit 1, but a secret that does not open the stored
 * keys exits 2, as every other command that opens the store answers MEMBER_KEY_SECRET_MISMATCH.
 */
async function refusalsMapped<T>(onDatabase: boolean, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof SecretMismatchError) {
      throw refused('MEMBER_KEY_SECRET_MISMATCH', `${err.message}; give the secret the keys were sealed with`);
    }
    if (err instanceof NodesRunningError) {
      // A node's row stays live for three of its heartbeats after a crash (state/nodes/model.ts): --force is for that.
      throw refused('NODES_RUNNING', onDatabase ? `${err.message}, or give --force if none is` : err.message);
    }
    if (err instanceof RotationConflictError) throw refused('ROTATION_CONFLICT', err.message);
    if (err instanceof StoreError && err.code === 'locked') throw refused('LOCKED', err.message);
    // Another connection held tollgate.db's write lock past its busy timeout (state/db.ts): rolled back.
    if ((err as { code?: string }).code === 'SQLITE_BUSY') throw refused('LOCKED', 'another process held tollgate.db past the wait');
    throw err;
  }
}

function refused(code: 'MEMBER_KEY_SECRET_MISMATCH' | 'NODES_RUNNING' | 'ROTATION_CONFLICT' | 'LOCKED', why: string): CliError {
  const exit = code === 'MEMBER_KEY_SECRET_MISMATCH' ? EXIT_UNREADABLE : EXIT_INVALID;
  return new CliError(code, `tollgate ${COMMAND}: ${code}: ${why}; nothing was written`, exit);
}
