// The workspace a node (serve, mcp) opens: the data folder with its SQLite database, or the PostgreSQL database
// every node shares (--database / TOLLGATE_DATABASE_URL; docs/deploy.md). Each refusal is one line with a code.
import { resolve } from 'node:path';
import { StoreError } from '@tollgate/store';
import type { NodeRegistration } from '../server/assemble-context.ts';
import type { AppContext } from '../server/context.ts';
import { custodialKeysFor, MemberKeySecretError } from '../server/member-key-secret.ts';
import { poolBoundsFrom } from '../server/postgres/pool-bounds.ts';
import { openPostgresContext } from '../server/postgres/postgres-context.ts';
import { SchemaMismatch } from '../server/postgres/schema.ts';
import { openContext } from '../server/sqlite-context.ts';
import { CustodialKeys, SecretMismatchError } from '../server/state/members/custodial-keys.ts';
import { dataFolderToWrite } from './data-folder.ts';
import { CliError } from './io.ts';
import { redacted } from './open-database.ts';
import { databaseOf, type ParsedOptions } from './options.ts';

export interface OpenedWorkspace {
  ctx: AppContext;
  /** Where the workspace is, as the startup line says it. */
  where: string;
}

/**
 * Opens the workspace the options name, registered as a deciding node.
 *
 * @example
 * const { ctx, where } = await openWorkspace(options, 'serve', { languageRevision: 3 });
 */
export async function openWorkspace(options: ParsedOptions, command: string, node: NodeRegistration): Promise<OpenedWorkspace> {
  const dataDir = resolve(options.data ?? '.tollgate-data');
  const database = databaseOf(options);
  if (database !== undefined) {
    let bounds: ReturnType<typeof poolBoundsFrom>;
    try {
      bounds = poolBoundsFrom(process.env, options);
    } catch (err) {
      throw new CliError('USAGE', `tollgate ${command}: ${(err as Error).message}`);
    }
    const custodial = signs(command) ? custodialKeysOf(options, command, undefined) : CustodialKeys.withoutSecret();
    const ctx = await openPostgresContext(database, { dataDir, node, bounds, custodial }).catch((err: unknown) => {
      if (err instanceof SecretMismatchError) throw secretMismatch(command, err);
      if (err instanceof SchemaMismatch) throw new CliError(err.code, `tollgate ${command}: ${err.code}: ${err.message}`);
      if (err instanceof StoreError) throw new CliError('STORE_DAMAGED', `tollgate ${command}: STORE_DAMAGED: ${err.message}`);
      throw new CliError(
        'DATABASE_UNREACHABLE',
        `tollgate ${command}: DATABASE_UNREACHABLE: ${redacted(database)} does not answer (${messageOf(err)})`,
      );
    });
    return { ctx, where: `database ${redacted(database)}` };
  }
  const folder = dataFolderToWrite(dataDir, command);
  const custodial = signs(command) ? custodialKeysOf(options, command, folder) : CustodialKeys.withoutSecret();
  const ctx = await openContext(folder, { node, custodial }).catch((err: unknown) => {
    if (err instanceof SecretMismatchError) throw secretMismatch(command, err);
    // A damaged store is refused with the file named and the command that mends it (docs/store.md, "Faults").
    if (err instanceof StoreError) {
      const code = err.code === 'locked' ? 'LOCKED' : 'STORE_DAMAGED';
      throw new CliError(code, `tollgate ${command}: ${err.message.replaceAll('--data DIR', `--data ${dataDir}`)}`);
    }
    throw err;
  });
  return { ctx, where: `data in ${dataDir}` };
}

/**
 * Whether a node signs for members: `serve` does (the console's approvals, the demo's members); `mcp`, an agent's
 * gateway, never does, so it is started without the secret and its host holds nothing that signs an approval.
 */
function signs(command: string): boolean {
  return command !== 'mcp';
}

/**
 * The custodial keys sealed with the secret the environment, --member-key-secret-file or the data folder gives
 * (server/member-key-secret.ts); a shared database (`dataDir` undefined) needs it given.
 */
export function custodialKeysOf(options: ParsedOptions, command: string, dataDir: string | undefined): CustodialKeys {
  try {
    return custodialKeysFor({ env: process.env, file: options['member-key-secret-file'], dataDir });
  } catch (err) {
    if (err instanceof MemberKeySecretError) throw new CliError(err.code, `tollgate ${command}: ${err.code}: ${err.message}`);
    throw err;
  }
}

/** The refusal of a secret that does not open the stored keys (members/custodial-keys.ts). */
export function secretMismatch(command: string, err: SecretMismatchError): CliError {
  return new CliError(
    'MEMBER_KEY_SECRET_MISMATCH',
    `tollgate ${command}: MEMBER_KEY_SECRET_MISMATCH: ${err.message}; give the secret the keys were sealed with`,
  );
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
