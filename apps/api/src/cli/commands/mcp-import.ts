// tollgate mcp import FILE --data DIR: starts a gateway from an MCP client's configuration. Lists every server's
// tools with the SDK's Client, drafts the upstreams, a catalogue, a deny-by-default policy and an agent, and
// saves each as a version that does not run: nothing runs until a person activates it (docs/mcp.md,
// "Starting from what you have"). Secrets in the file are used to list tools now and written nowhere.
import { basename } from 'node:path';
import { documentKindOf } from '@tollgate/engine';
import { type Diagnostic, diagnosticJson, formatDiagnostic, placeProblems, readJsonText } from '@tollgate/engine/source';
import { type ProposedEdit, StoreError } from '@tollgate/store';
import type { AppContext } from '../../server/context.ts';
import { clientConfigProblem, type Variable } from '../../server/mcp/import-config.ts';
import {
  type DraftOutcome,
  draftFromConfig,
  type Listing,
  recordListings as recordListed,
  saveDrafts as saveEveryDraft,
} from '../../server/mcp/import-drafts.ts';
import type { DraftTool } from '../../server/mcp/import-texts.ts';
import { openContext } from '../../server/sqlite-context.ts';
import { dataFolderToWrite } from '../data-folder.ts';
import { CliError, type CliIo, EXIT_INVALID, EXIT_OK, refusedInput } from '../io.ts';
import type { ParsedOptions } from '../options.ts';
import { MAX_DOCUMENT_BYTES, readTextFile } from '../read-input.ts';

export const AGENT_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;
const DEFAULT_AGENT = 'mcp-agent';
const DEFAULT_TIMEOUT_SECONDS = 30;
const AUTHOR = { kind: 'system', label: 'tollgate mcp import' } as const;

export interface Saved {
  id: string;
  sequence: number;
}

export async function mcpImport(file: string, options: ParsedOptions, io: CliIo): Promise<number> {
  if (options.data === undefined) throw new CliError('USAGE', 'missing --data DIR');
  const agent = options.agent ?? DEFAULT_AGENT;
  if (!AGENT_NAME.test(agent)) throw new CliError('USAGE', 'an agent name is 1-64 lowercase letters, digits and -');
  const catalogueId = options.catalogue ?? `catalogues/${agent}.yaml`;
  if (documentKindOf(catalogueId) !== 'catalogue') {
    throw new CliError('USAGE', `--catalogue names a catalogue document: catalogue.yaml or catalogues/<name>.yaml, not ${catalogueId}`);
  }
  const ids = { catalogue: catalogueId, policy: `policies/${agent}.policy.json`, agent: `agents/${agent}.agent.yaml` };
  const timeoutMs = timeoutOf(options['upstream-timeout']);
  const read = readClientFile(file, io);
  if (typeof read === 'number') return read;

  const ctx = await openContext(dataFolderToWrite(options.data, 'mcp import'), { watch: false }).catch((err: unknown) => {
    if (err instanceof StoreError) throw new CliError('STORE_DAMAGED', `tollgate mcp import: ${err.message}`);
    throw err;
  });
  try {
    const drafted = await draftImport(ctx, file, read, ids, timeoutMs, io);
    if (typeof drafted === 'number') return drafted;
    const saved = await saveDrafts(ctx, drafted.drafts, AUTHOR, `drafted by tollgate mcp import from ${basename(file)}`, io);
    if (saved === undefined) return EXIT_INVALID;
    await recordListings(ctx, drafted);
    report(io, options, { file, dataDir: options.data, agent, ...drafted, saved });
    return EXIT_OK;
  } finally {
    ctx.events.close();
    await ctx.close();
  }
}

/** An MCP client's file, read by the one exact JSON reader; an exit code when it is refused (problems on stderr). */
export type ClientFile = Extract<ReturnType<typeof readJsonText>, { ok: true }>;

/**
 * Reads an MCP client's configuration file: unreadable input exits 2 (a CliError) and a text it cannot state
 * exactly (a member named twice) or that is not an `mcpServers` file exits 1, as for `policy validate`
 * (docs/architecture.md, "Reading hostile input").
 */
export function readClientFile(file: string, io: CliIo): ClientFile | number {
  const read = readJsonText(readTextFile(file, MAX_DOCUMENT_BYTES));
  if (!read.ok) throw refusedInput(file, [read.diagnostic]);
  if (read.diagnostics.length > 0) return refuse(io, file, read.diagnostics);
  const notConfig = clientConfigProblem(read.value);
  if (notConfig !== undefined) return refuse(io, file, placeProblems([notConfig], read.rangeOf));
  return read;
}

/** What an import drafts from a client's file: the documents, the tools, each server's listing, the variables to set. */
export type DraftedImport = Extract<DraftOutcome, { status: 'drafted' }>;

/**
 * Lists every server's tools and drafts the documents of `ids` (and the upstreams) into nothing yet: the caller
 * saves them (server/mcp/import-drafts.ts, the one drafting path the API's import takes too). An exit code when
 * nothing can be drafted or a document exists already (the reasons on stderr).
 */
export async function draftImport(
  ctx: AppContext,
  file: string,
  read: ClientFile,
  ids: { catalogue: string; policy: string; agent: string },
  timeoutMs: number,
  io: CliIo,
): Promise<DraftedImport | number> {
  const d = await draftFromConfig(ctx, {
    config: read.value,
    rangeOf: read.rangeOf,
    ids,
    timeoutMs,
    env: process.env,
    source: basename(file),
    insteadOfExisting: 'choose another --agent or --catalogue',
  });
  if (d.status === 'not_config' || d.status === 'exists') return refuse(io, file, d.problems);
  if (d.status === 'drafted') {
    for (const p of d.problems) io.stderr.write(`${formatDiagnostic(file, p)}\n`);
    return d;
  }
  for (const p of d.problems) io.stderr.write(`${formatDiagnostic(file, p)}\n`);
  if (d.status === 'nothing') {
    io.stderr.write(
      `${formatDiagnostic(file, { code: 'NOTHING_TO_IMPORT', severity: 'error', message: 'no server listed a tool to draft; nothing is saved' })}\n`,
    );
    return EXIT_INVALID;
  }
  if (d.status === 'invalid_drafts') for (const x of d.drafts) io.stderr.write(`${formatDiagnostic(x.id, x.problem)}\n`);
  return EXIT_INVALID;
}

/** The definitions the servers listed are seen, so an owner can review and pin them once the drafts run. */
export function recordListings(ctx: AppContext, drafted: DraftedImport): Promise<void> {
  return recordListed(ctx, drafted.listings, drafted.used);
}

export function timeoutOf(text: string | undefined): number {
  if (text === undefined) return DEFAULT_TIMEOUT_SECONDS * 1000;
  if (!/^[0-9]{1,7}$/.test(text) || Number(text) < 1)
    throw new CliError('USAGE', `--upstream-timeout is a whole number of seconds from 1, got ${text}`);
  return Number(text) * 1000;
}

/** Saves the drafts, each as a version that does not run; undefined (the refusal on stderr) when one is refused. */
export async function saveDrafts(
  ctx: AppContext,
  drafts: readonly { id: string; text: string }[],
  author: ProposedEdit['author'],
  reason: string,
  io: CliIo,
): Promise<Saved[] | undefined> {
  const saving = await saveEveryDraft(ctx, drafts, author, reason);
  if (!('refused' in saving)) return saving.saved;
  for (const r of saving.refused) io.stderr.write(`${formatDiagnostic(r.id, r.problem)}\n`);
  if (saving.saved.length > 0)
    io.stderr.write(`saved before the refusal, not running: ${saving.saved.map((s) => `${s.id} version ${s.sequence}`).join(', ')}\n`);
  return undefined;
}

interface Report {
  file: string;
  dataDir: string;
  agent: string;
  tools: readonly DraftTool[];
  listings: readonly Listing[];
  variables: readonly Variable[];
  saved: readonly Saved[];
  problems: readonly Diagnostic[];
}

function report(io: CliIo, options: ParsedOptions, r: Report): void {
  if (options.json) {
    const out = {
      running: false,
      documents: r.saved.map((s) => ({ id: s.id, sequence: s.sequence, running: false })),
      servers: r.listings.map((l) => ({
        key: l.server.key,
        name: l.server.upstream.name,
        ...('error' in l ? { listed: false, code: l.error.code } : { listed: true, tools: l.tools.length }),
      })),
      tools: r.tools,
      variables: r.variables,
      problems: r.problems.map(diagnosticJson),
    };
    io.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    return;
  }
  const w = (line: string) => io.stdout.write(`${line}\n`);
  w(`tollgate mcp import: ${r.tools.length} tools of ${new Set(r.tools.map((t) => t.server)).size} servers from ${r.file}`);
  for (const l of r.listings) {
    const mine = r.tools.filter((t) => t.server === l.server.upstream.name);
    const reads = mine.filter((t) => t.kind === 'read').length;
    if ('error' in l) w(`  ${l.server.upstream.name}: not drafted (${l.error.code}, on stderr)`);
    else w(`  ${l.server.upstream.name}: ${mine.length} tools, ${reads} read-only (allowed), ${mine.length - reads} held for approval`);
  }
  w('');
  w('NOTHING RUNS YET. Saved as versions that do not run:');
  for (const s of r.saved) w(`  ${s.id} version ${s.sequence}`);
  if (r.variables.length > 0) {
    w('');
    w('Set these variables in the environment of the gateway (tollgate serve, tollgate mcp); their values are in your');
    w('client file and were written nowhere:');
    for (const v of r.variables) w(`  ${v.name}  (${v.server}, ${v.from})`);
  }
  w('');
  w('To run it, an owner or admin:');
  w('  1. reviews and activates each version above, in that order: the console (Documents, the history of each), or');
  for (const s of r.saved) w(`     POST /v1/documents/${encodeURIComponent(s.id)}/activate {"sequence": ${s.sequence}}`);
  w("  2. reviews each tool's upstream definition and authorizes the catalogue's tools: the catalogue page's Authorize");
  w('     buttons, or POST /v1/catalogues/{id}/tools/{name}/authorize {"digest", "upstream_digest"} (docs/mcp.md,');
  w('     "Pinned tool definitions")');
  w(`  3. gives the agent a key: tollgate keys create --data ${r.dataDir} --agent ${r.agent}`);
  w(`     and points the MCP client at: tollgate mcp --agent ${r.agent} --data ${r.dataDir} (docs/mcp.md)`);
}

function refuse(io: CliIo, file: string, problems: readonly Diagnostic[]): number {
  for (const p of problems) io.stderr.write(`${formatDiagnostic(file, p)}\n`);
  return EXIT_INVALID;
}
