// tollgate export --database URL --data DIR: the reverse of import (docs/deploy.md, "Moving a workspace"): every
// document with its whole history, the rule sets' lifecycle, and the members, keys, authorizations and upstream
// definitions, read in one snapshot of the database and written into a new or empty data folder, so a team can keep
// its documents in git. A folder is not transactional: a document that cannot be written stops the export, named.
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readJsonText } from '@tollgate/engine/source';
import { exportDocumentWith } from '@tollgate/store';
import { plainJson } from '../../server/mcp/plain-json.ts';
import { readPostgresState, readSqliteState, stateCounts, writeSqliteState } from '../../server/postgres/state-transfer.ts';
import { LIFECYCLE_KEY } from '../../server/rulesets/lifecycle.ts';
import { openDatabase } from '../../server/state/db.ts';
import { CliError, type CliIo, EXIT_OK } from '../io.ts';
import { openCurrentDatabase, redacted } from '../open-database.ts';
import { databaseOf, type ParsedOptions, required } from '../options.ts';
import { describeReport, documentFailure, openFolderDocuments, reportOf } from './transfer-parts.ts';

export async function exportWorkspace(options: ParsedOptions, io: CliIo): Promise<number> {
  const url = databaseOf(options);
  if (url === undefined) throw new CliError('USAGE', 'missing --database URL (or TOLLGATE_DATABASE_URL)');
  const dataDir = resolve(required(options.data, 'data'));
  refuseNonEmpty(dataDir);
  const pool = await openCurrentDatabase(url, 'export');
  const client = await pool.connect();
  try {
    // One snapshot: nodes writing meanwhile change nothing of what is exported.
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const state = await readPostgresState(client);
    const ids = (await client.query<{ id: string }>('SELECT id FROM documents')).rows.map((r) => r.id).sort();
    const lifecycle = (await client.query<{ value: string | null }>('SELECT value FROM document_state WHERE key = $1', [LIFECYCLE_KEY]))
      .rows[0]?.value;
    const store = await openFolderDocuments(dataDir, 'export');
    let versions = 0;
    try {
      for (const id of ids) {
        try {
          const exported = await exportDocumentWith(client, id);
          await store.importDocument(id, exported);
          versions += exported.index.versions.length;
        } catch (err) {
          throw documentFailure('export', id, err, `the documents before it are in ${dataDir}; remove the folder and run the export again`);
        }
      }
      if (lifecycle != null) await store.writeState(LIFECYCLE_KEY, lifecycleValue(lifecycle));
    } finally {
      await store.close();
    }
    await client.query('COMMIT');
    const db = openDatabase(join(dataDir, 'tollgate.db'));
    try {
      writeSqliteState(db, state);
    } finally {
      db.close();
    }
    const report = reportOf(ids.length, versions, state);
    if (options.json) io.stdout.write(`${JSON.stringify({ database: redacted(url), data: dataDir, ...report }, null, 2)}\n`);
    else io.stdout.write(`tollgate export: wrote ${describeReport(report)} from ${redacted(url)} into ${dataDir}\n`);
    return EXIT_OK;
  } finally {
    await client.query('ROLLBACK').catch(() => {});
    client.release();
    await pool.end().catch(() => {});
  }
}

/** An export writes a new or empty data folder only: no document (working copy or history) and no member or key. */
function refuseNonEmpty(dataDir: string): void {
  const documents = join(dataDir, 'documents');
  const entries = existsSync(documents) ? readdirSync(documents).filter((e) => e !== '.tollgate') : [];
  const histories = join(documents, '.tollgate', 'documents');
  const stored = existsSync(histories) ? readdirSync(histories) : [];
  let state = 0;
  if (entries.length === 0 && stored.length === 0 && existsSync(join(dataDir, 'tollgate.db'))) {
    const db = openDatabase(join(dataDir, 'tollgate.db'));
    try {
      // The adoption mark alone is no workspace: a node started on the empty folder writes it.
      const { tool_authorizations_adopted: _mark, ...rows } = stateCounts(readSqliteState(db));
      state = Object.values(rows).reduce((a, b) => a + b, 0);
    } finally {
      db.close();
    }
  }
  if (entries.length > 0 || stored.length > 0 || state > 0) {
    throw new CliError(
      'DATA_NOT_EMPTY',
      `tollgate export: DATA_NOT_EMPTY: ${dataDir} already holds ${entries.length > 0 || stored.length > 0 ? 'documents' : 'members, keys or authorizations'}; export into a new or empty folder; nothing was written`,
      1,
    );
  }
}

/**
 * The rule sets' lifecycle as stored: the text passes the one exact reader first (anyone with the database could
 * have written it), and is refused STORE_DAMAGED, with its position, unless it reads whole without a duplicate
 * member; its value, made plain as the MCP gateway makes the SDK's (plain-json.ts), is what the folder store
 * writes (the store wrote it with JSON.stringify, small integers its only numbers). One read, no second parser.
 */
function lifecycleValue(text: string): unknown {
  const read = readJsonText(text, { maxLength: Number.MAX_SAFE_INTEGER, maxDepth: 64 });
  const problem = read.ok ? read.diagnostics.find((d) => d.code === 'DUPLICATE_MEMBER') : read.diagnostic;
  if (problem !== undefined) {
    const at = problem.line === undefined ? '' : ` at line ${problem.line}, column ${problem.column ?? 1}`;
    throw new CliError(
      'STORE_DAMAGED',
      `tollgate export: STORE_DAMAGED: the rule sets' lifecycle in the database does not read${at}: ${problem.message}`,
    );
  }
  return plainJson((read as { value: unknown }).value);
}
