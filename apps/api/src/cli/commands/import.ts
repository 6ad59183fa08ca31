// tollgate import --data DIR --database URL: moves a folder workspace into a migrated, empty database
// (docs/deploy.md, "Moving a workspace"): every document with its whole history, the rule sets' lifecycle, and the
// state a team needs to keep working (state-transfer.ts), all in one transaction, so a refusal or a document that
// cannot be moved writes nothing. Decisions, approvals and trial counts stay in the folder's tollgate.db.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { importDocumentWith } from '@tollgate/store';
import type pg from 'pg';
import { emptyState, readSqliteState, writePostgresState } from '../../server/postgres/state-transfer.ts';
import { LIFECYCLE_KEY } from '../../server/rulesets/lifecycle.ts';
import { openDatabase } from '../../server/state/db.ts';
import { CliError, type CliIo, EXIT_OK } from '../io.ts';
import { openCurrentDatabase, redacted } from '../open-database.ts';
import { databaseOf, type ParsedOptions, required } from '../options.ts';
import { describeReport, documentFailure, openFolderDocuments, reportOf } from './transfer-parts.ts';

export async function importWorkspace(options: ParsedOptions, io: CliIo): Promise<number> {
  const url = databaseOf(options);
  if (url === undefined) throw new CliError('USAGE', 'missing --database URL (or TOLLGATE_DATABASE_URL)');
  const dataDir = resolve(required(options.data, 'data'));
  const dbPath = join(dataDir, 'tollgate.db');
  if (!existsSync(join(dataDir, 'documents')) && !existsSync(dbPath)) {
    throw new CliError('DATA_MISSING', `tollgate import: DATA_MISSING: ${dataDir} holds no documents folder and no tollgate.db`);
  }
  const pool = await openCurrentDatabase(url, 'import');
  try {
    await refuseNonEmpty(pool);
    const store = await openFolderDocuments(dataDir, 'import');
    // The folder's tollgate.db is read, never created: a folder without one carries documents alone.
    const db = existsSync(dbPath) ? openDatabase(dbPath) : undefined;
    const client = await pool.connect();
    try {
      const state = db ? readSqliteState(db) : emptyState();
      const ids = await store.list();
      let versions = 0;
      await client.query('BEGIN');
      try {
        // Checked again inside the transaction: a node may have written since the first look.
        await refuseNonEmpty(client);
        await writePostgresState(client, state).catch((err: unknown) => {
          // A row a node wrote into the empty database meanwhile (an upstream definition seen, say) collides.
          const why = err instanceof Error ? err.message : String(err);
          throw new CliError(
            'IMPORT_FAILED',
            `tollgate import: IMPORT_FAILED: the state rows could not be written (${why}); nothing was written`,
            1,
          );
        });
        for (const id of ids) {
          try {
            const exported = await store.exportDocument(id);
            await importDocumentWith(client, id, exported);
            versions += exported.index.versions.length;
          } catch (err) {
            throw documentFailure('import', id, err, 'nothing was written to the database');
          }
        }
        const lifecycle = await store.readState(LIFECYCLE_KEY);
        if (lifecycle !== undefined) {
          // Replaced: a node started on the empty database may have written an empty one.
          await client.query(
            'INSERT INTO document_state (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value',
            [LIFECYCLE_KEY, JSON.stringify(lifecycle)],
          );
        }
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      }
      const report = reportOf(ids.length, versions, state);
      const archive = db ? dbPath : null;
      if (options.json) io.stdout.write(`${JSON.stringify({ database: redacted(url), data: dataDir, ...report, archive }, null, 2)}\n`);
      else {
        io.stdout.write(`tollgate import: moved ${describeReport(report)} from ${dataDir} into ${redacted(url)}\n`);
        if (archive) io.stdout.write(`Decisions, approvals and trial counts stay in ${archive} as an archive; they were not moved.\n`);
      }
      return EXIT_OK;
    } finally {
      client.release();
      db?.close();
      await store.close();
    }
  } finally {
    await pool.end().catch(() => {});
  }
}

/** An import writes into a database without documents or members only: it never merges two workspaces. */
async function refuseNonEmpty(db: pg.Pool | pg.ClientBase): Promise<void> {
  const { rows } = await db.query<{ documents: number; members: number }>(
    'SELECT (SELECT count(*) FROM documents)::int AS documents, (SELECT count(*) FROM members)::int AS members',
  );
  const { documents, members } = rows[0] ?? { documents: 0, members: 0 };
  if (documents > 0 || members > 0) {
    throw new CliError(
      'DATABASE_NOT_EMPTY',
      `tollgate import: DATABASE_NOT_EMPTY: the database already holds ${documents} documents and ${members} members; import only into a newly migrated database; nothing was written`,
      1,
    );
  }
}
