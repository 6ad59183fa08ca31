// What `tollgate import` and `tollgate export` share (docs/deploy.md, "Moving a workspace"): the folder store
// opened as serve opens it, a document that could not be moved, and the report.
import { join } from 'node:path';
import { FolderDocumentStore, loadProblems, StoreError } from '@tollgate/store';
import type { CarriedState } from '../../server/postgres/state-transfer.ts';
import { CliError } from '../io.ts';

/**
 * The data folder's documents, opened as serve opens them (hand edits taken in, a text that does not load kept
 * as a rejected version), without watching.
 */
export async function openFolderDocuments(dataDir: string, command: string): Promise<FolderDocumentStore> {
  try {
    return await FolderDocumentStore.open(join(dataDir, 'documents'), { watch: false, validate: loadProblems });
  } catch (err) {
    if (!(err instanceof StoreError)) throw err;
    const code = err.code === 'locked' ? 'LOCKED' : 'STORE_DAMAGED';
    throw new CliError(code, `tollgate ${command}: ${code}: ${err.message.replaceAll('--data DIR', `--data ${dataDir}`)}`);
  }
}

/** One document that could not be moved: named, with why; nothing (import) or nothing more (export) was written. */
export function documentFailure(command: string, id: string, err: unknown, after: string): CliError {
  const code = command === 'import' ? 'IMPORT_FAILED' : 'EXPORT_FAILED';
  const why = err instanceof StoreError ? `${err.code}: ${err.message}` : err instanceof Error ? err.message : String(err);
  return new CliError(code, `tollgate ${command}: ${code}: ${id} could not be moved (${why}); ${after}`, 1);
}

export interface TransferReport {
  documents: number;
  versions: number;
  members: number;
  api_keys: number;
  tool_authorizations: number;
  bindings_adopted: boolean;
  upstream_tools: number;
}

export function reportOf(documents: number, versions: number, state: CarriedState): TransferReport {
  return {
    documents,
    versions,
    members: state.members.length,
    api_keys: state.api_keys.length,
    tool_authorizations: state.tool_authorizations.length,
    bindings_adopted: state.tool_authorizations_adopted.length > 0,
    upstream_tools: state.upstream_tools.length,
  };
}

/** "3 documents (12 versions), 4 members, 6 keys, 5 tool authorizations, 2 upstream definitions". */
export function describeReport(r: TransferReport): string {
  return `${r.documents} documents (${r.versions} versions), ${r.members} members, ${r.api_keys} keys, ${r.tool_authorizations} tool authorizations, ${r.upstream_tools} upstream definitions`;
}
