// The workspace a node (serve, mcp) opens: the data folder with its SQLite database, or the PostgreSQL database
// every node shares (--database / TOLLGATE_DATABASE_URL; docs/deploy.md). Each refusal is one line with a code.
import { resolve } from 'node:path';
import { StoreError } from '@tollgate/store';
import type { NodeRegistration } from '../server/assemble-context.ts';
import type { AppContext } from '../server/context.ts';
import { poolBoundsFrom } from '../server/postgres/pool-bounds.ts';
import { openPostgresContext } from '../server/postgres/postgres-context.ts';
import { SchemaMismatch } from '../server/postgres/schema.ts';
import { openContext } from '../server/sqlite-context.ts';
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
    const ctx = await openPostgresContext(database, { dataDir, node, bounds }).catch((err: unknown) => {
      if (err instanceof SchemaMismatch) throw new CliError(err.code, `tollgate ${command}: ${err.code}: ${err.message}`);
      if (err instanceof StoreError) throw new CliError('STORE_DAMAGED', `tollgate ${command}: STORE_DAMAGED: ${err.message}`);
      throw new CliError(
        'DATABASE_UNREACHABLE',
        `tollgate ${command}: DATABASE_UNREACHABLE: ${redacted(database)} does not answer (${messageOf(err)})`,
      );
    });
    return { ctx, where: `database ${redacted(database)}` };
  }
  const ctx = await openContext(dataFolderToWrite(dataDir, command), { node }).catch((err: unknown) => {
    // A damaged store is refused with the file named and the command that mends it (docs/store.md, "Faults").
    if (err instanceof StoreError) {
      const code = err.code === 'locked' ? 'LOCKED' : 'STORE_DAMAGED';
      throw new CliError(code, `tollgate ${command}: ${err.message.replaceAll('--data DIR', `--data ${dataDir}`)}`);
    }
    throw err;
  });
  return { ctx, where: `data in ${dataDir}` };
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
