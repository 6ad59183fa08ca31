// tollgate audit export: the record as JSON lines (docs/audit.md, "Exporting"), read from the data folder's
// tollgate.db or a PostgreSQL database, each entry's body restated from the row it states as that row stands, so
// `tollgate audit verify` of the file names any row changed, removed or reordered since it was chained.
import { type DocumentStore, PostgresDocumentStore } from '@tollgate/store';
import { type ExportRange, exportRecord, type RecordLine } from '../../server/record/export.ts';
import { CliError, type CliIo, EXIT_OK } from '../io.ts';
import { databaseOf, type ParsedOptions } from '../options.ts';
import { stateOf } from './keys.ts';
import { count } from './record-shapes.ts';
import { openFolderDocuments } from './transfer-parts.ts';
import { writeOutputFile } from './write-file.ts';

/** An ISO time of --since or --until, as the record writes times (so they compare as text), or a usage error. */
function timeOf(option: 'since' | 'until', text: string): string {
  const ms = /^\d{4}-\d{2}-\d{2}(T[0-9:.]+(Z|[+-]\d{2}:\d{2}))?$/.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(ms)) throw new CliError('USAGE', `--${option} ${text}: give an ISO 8601 time, like 2026-12-01 or 2026-12-01T09:00:00Z`);
  return new Date(ms).toISOString();
}

/** The time range asked for, if any: from --since (inclusive) to --until (exclusive). */
function rangeOf(options: ParsedOptions): ExportRange | undefined {
  if (options.since === undefined && options.until === undefined) return undefined;
  const since = options.since === undefined ? new Date(0).toISOString() : timeOf('since', options.since);
  const until = options.until === undefined ? '9999-12-31T23:59:59.999Z' : timeOf('until', options.until);
  if (since >= until) throw new CliError('USAGE', `--since ${since} is not before --until ${until}`);
  return { since, until };
}

export async function auditExport(options: ParsedOptions, io: CliIo): Promise<number> {
  const range = rangeOf(options);
  const { state, close } = await stateOf(options, 'audit export', false);
  const lines: string[] = [];
  let counts: Awaited<ReturnType<typeof exportRecord>>;
  let documents: DocumentStore | undefined;
  try {
    // The versions' texts, so a document's change is restated from the text the store holds now.
    const url = databaseOf(options);
    documents =
      url !== undefined
        ? await PostgresDocumentStore.open({ connectionString: url, listen: false })
        : await openFolderDocuments(options.data as string, 'audit export');
    counts = await exportRecord(
      state.recordReader,
      (line: RecordLine) => {
        lines.push(JSON.stringify(line));
      },
      { documents, ...(range ? { range } : {}) },
    );
  } finally {
    await documents?.close();
    await close();
  }
  const text = lines.length === 0 ? '' : `${lines.join('\n')}\n`;
  const summary = `audit export: ${count(counts.entries, 'entry', 'entries')} of ${count(counts.writers, 'writer', 'writers')}, ${count(counts.checkpoints, 'checkpoint', 'checkpoints')}, ${count(counts.members, 'signing member', 'signing members')}`;
  if (options.out !== undefined) {
    // Written whole or not at all: an auditor never receives half a record.
    writeOutputFile(options.out, text, options.force === true);
    io.stderr.write(`${summary}: ${options.out}\n`);
  } else {
    io.stdout.write(text);
    io.stderr.write(`${summary}\n`);
  }
  return EXIT_OK;
}
