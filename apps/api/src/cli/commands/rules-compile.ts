// tollgate rules compile: exit 0 compiled, 1 refused, 2 unreadable, 3 the service cannot be reached,
// 4 the service answered but did not compile (a key it refused, its own failure).
import { basename, join } from 'node:path';
import { formatLint, formatRulebook, type RulesCompileResult } from '@tollgate/engine';
import { type Diagnostic, formatDiagnostic } from '@tollgate/engine/source';
import { CliError, type CliIo, EXIT_INVALID, EXIT_OK } from '../io.ts';
import type { ParsedOptions } from '../options.ts';
import { MAX_DOCUMENT_BYTES, readTextFile } from '../read-input.ts';
import { compileRulesFile, loadCatalogue, printRefusal } from './load-rules.ts';
import { writeFilesAtomic } from './write-file.ts';

export const EXIT_UNREACHABLE = 3;
/** The service answered, but not with a compile or a refusal: 401/403 (the key), 5xx, or not its API. */
export const EXIT_SERVICE_ERROR = 4;

/** What --out-dir holds after a compile: every one is written or removed, so no stale output is left. */
const OUTPUTS = ['rule_sheet.co', 'rulebook.ir.json', 'catalogue_overlay.json'] as const;

export async function rulesCompile(file: string, options: ParsedOptions, io: CliIo): Promise<number> {
  const result = options.server ? await compileOnServer(file, options, io) : compileRulesFile(file, loadCatalogue(options.catalogue));
  if (!result.ok) {
    if (options.json) io.stdout.write(`${JSON.stringify({ compiled: false, problems: result.problems }, null, 2)}\n`);
    printRefusal(file, result, io);
    return EXIT_INVALID;
  }
  for (const lint of result.lints) io.stderr.write(`${formatLint(file, lint)}\n`);
  const files: { name: (typeof OUTPUTS)[number]; text: string }[] = [];
  if (result.colang !== undefined) files.push({ name: 'rule_sheet.co', text: result.colang });
  files.push({ name: 'rulebook.ir.json', text: formatRulebook(result.rulebook) });
  files.push({ name: 'catalogue_overlay.json', text: `${JSON.stringify(result.overlay, null, 2)}\n` });
  if (options['out-dir']) {
    const dir = options['out-dir'];
    // A .co compiles to no rule_sheet.co: one left from an earlier sheet would sit beside a rulebook
    // it did not make, so it goes in the same all-or-nothing step as the writes.
    const stale = OUTPUTS.filter((name) => !files.some((f) => f.name === name)).map((name) => join(dir, name));
    writeFilesAtomic(
      dir,
      files.map((f) => ({ path: join(dir, f.name), text: f.text })),
      stale,
    );
  }
  if (options.json) {
    const { colang, rulebook, overlay, lints, sourceMap } = result;
    io.stdout.write(
      `${JSON.stringify({ compiled: true, colang: colang ?? null, rulebook, source_map: sourceMap, overlay, lints }, null, 2)}\n`,
    );
  } else if (options['out-dir']) {
    io.stdout.write(`compiled; wrote ${files.map((f) => f.name).join(', ')} to ${options['out-dir']}\n`);
  } else io.stdout.write('compiled; nothing is kept\n');
  return EXIT_OK;
}

/** Compiles on a Tollgate service (POST /v1/rule-sheets/compile), which keeps nothing. */
async function compileOnServer(file: string, options: ParsedOptions, io: CliIo): Promise<RulesCompileResult> {
  const server = options.server as string;
  let url: URL;
  try {
    url = new URL('/v1/rule-sheets/compile', server);
  } catch {
    throw new CliError('USAGE', `--server ${server} is not a URL`);
  }
  const kind = /\.co$/i.test(file) ? 'colang' : 'sheet';
  const text = readTextFile(file, MAX_DOCUMENT_BYTES);
  const body = {
    source: basename(file),
    [kind]: text,
    ...(options.catalogue
      ? {
          catalogue: readTextFile(options.catalogue, MAX_DOCUMENT_BYTES),
          catalogue_format: /\.json$/i.test(options.catalogue) ? 'json' : 'yaml',
        }
      : {}),
  };
  let response: Response;
  try {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    // TOLLGATE_API_KEY, the member key every client command reads; TOLLGATE_KEY is this command's earlier name for it.
    const key = process.env.TOLLGATE_API_KEY || process.env.TOLLGATE_KEY;
    if (key) headers.authorization = `Bearer ${key}`;
    response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal: AbortSignal.timeout(15_000) });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string; errors?: { code?: string }[] } }).cause;
    const why = cause?.code ?? cause?.errors?.[0]?.code ?? cause?.message ?? (err as Error).message;
    io.stderr.write(`${file}: the service at ${server} cannot be reached: ${why}\n`);
    throw new CliError('UNREACHABLE', `the sheet was not compiled; nothing was changed`, EXIT_UNREACHABLE);
  }
  const answer = (await response.json().catch(() => undefined)) as
    | (CompileAnswer & { error?: { code: string; message: string; details?: { problems?: Diagnostic[] } } })
    | undefined;
  if (response.status === 422 && answer?.error?.code === 'INVALID_CATALOGUE' && options.catalogue) {
    const catalogueFile = options.catalogue;
    const lines = (answer.error.details?.problems ?? []).map((p) => formatDiagnostic(catalogueFile, p));
    throw new CliError(answer.error, lines.join('\n') || `${catalogueFile}: the catalogue does not load`);
  }
  if (response.status === 422 && answer?.error?.details?.problems) {
    // The service answers the one Diagnostic; a problem the text does not place may come with line null.
    const problems = answer.error.details.problems.map(({ line, ...d }: Omit<Diagnostic, 'line'> & { line?: number | null }) =>
      line === null || line === undefined ? d : { ...d, line },
    );
    return { ok: false, kind, problems };
  }
  if (!response.ok || !answer?.rulebook) {
    // Reached, so not exit 3: a refused key (401/403) or the service's own failure (5xx) is mended
    // elsewhere than a network, and a script should tell the two apart.
    throw new CliError(
      'SERVICE_ERROR',
      `${file}: the service at ${server} answered ${response.status}${answer?.error ? ` ${answer.error.code}: ${answer.error.message}` : ''}; the sheet was not compiled; nothing was changed`,
      EXIT_SERVICE_ERROR,
    );
  }
  const { colang, rulebook, overlay, lints, source_map } = answer;
  return { ok: true, kind, ...(colang === null ? {} : { colang }), rulebook, overlay, lints, sourceMap: source_map };
}

/** The service's answer to a compile (apps/api/src/server/rule-sheets.ts). */
type CompileAnswer = Omit<Extract<RulesCompileResult, { ok: true }>, 'ok' | 'kind' | 'colang' | 'sourceMap'> & {
  colang: string | null;
  source_map: Extract<RulesCompileResult, { ok: true }>['sourceMap'];
};
