// tollgate mcp import FILE --data DIR: starts a gateway from an MCP client's configuration. Lists every server's
// tools with the SDK's Client, drafts the upstreams, a catalogue, a deny-by-default policy and an agent, and
// saves each as a version that does not run: nothing runs until a person activates it (docs/mcp.md,
// "Starting from what you have"). Secrets in the file are used to list tools now and written nowhere.
import { basename } from 'node:path';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import {
  type Code,
  catalogueFormatOf,
  documentKindOf,
  readCatalogue,
  readUpstreams,
  UPSTREAMS_ID,
  type Upstream,
  validateDocument,
} from '@tollgate/engine';
import { type Diagnostic, diagnosticJson, formatDiagnostic, placeProblems, readJsonText } from '@tollgate/engine/source';
import { type EditImpact, EditSeam, type EditWriter, engineValidators, type ProposedEdit, StoreError, saveEdit } from '@tollgate/store';
import type { AppContext } from '../../server/context.ts';
import { UpstreamError, UpstreamPool } from '../../server/mcp/upstream-pool.ts';
import { openContext, type SqliteAppContext } from '../../server/sqlite-context.ts';
import { recordListed } from '../../server/state/tools/sqlite.ts';
import { dataFolderToWrite } from '../data-folder.ts';
import { CliError, type CliIo, EXIT_INVALID, EXIT_OK, refusedInput } from '../io.ts';
import type { ParsedOptions } from '../options.ts';
import { MAX_DOCUMENT_BYTES, readTextFile } from '../read-input.ts';
import { type ClientServer, clientConfigProblem, readClientConfig, type Variable } from './mcp-import-config.ts';
import {
  agentText,
  catalogueText,
  type DraftTool,
  draftTools,
  type ListedTool,
  policyText,
  upstreamsText,
  upstreamsTextAfresh,
} from './mcp-import-drafts.ts';

export const AGENT_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;
const DEFAULT_AGENT = 'mcp-agent';
const DEFAULT_TIMEOUT_SECONDS = 30;
const AUTHOR = { kind: 'system', label: 'tollgate mcp import' } as const;

/** A server's tools as listed, or why they could not be. */
export type Listing = { server: ClientServer; tools: Tool[] } | { server: ClientServer; error: Diagnostic };

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
    recordListings(ctx, drafted);
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
export interface DraftedImport {
  drafts: { id: string; text: string }[];
  tools: DraftTool[];
  listings: Listing[];
  variables: Variable[];
  /** The servers a tool was drafted for. */
  used: Set<string>;
  /** What could not be imported, placed in the file (already on stderr). */
  problems: Diagnostic[];
}

/**
 * Lists every server's tools and drafts the documents of `ids` (and the upstreams) into nothing yet: the caller
 * saves them. An exit code when nothing can be drafted or a document exists already (the reasons on stderr).
 */
export async function draftImport(
  ctx: AppContext,
  file: string,
  read: ClientFile,
  ids: { catalogue: string; policy: string; agent: string },
  timeoutMs: number,
  io: CliIo,
): Promise<DraftedImport | number> {
  const taken = await existing(ctx, Object.values(ids));
  if (taken.length > 0) return refuse(io, file, taken);
  const runningText = (await ctx.store.get(UPSTREAMS_ID).catch(() => undefined))?.text;
  const runningRead = runningText === undefined ? undefined : readUpstreams(runningText);
  const running = runningRead?.ok ? { text: runningText as string, servers: runningRead.upstreams.servers } : undefined;
  const config = readClientConfig(read.value, running?.servers ?? [], process.env);

  const listings = await Promise.all(config.servers.map((server) => listTools(server, timeoutMs)));
  const problems = [...config.problems];
  const listed: { server: string; path: string; tools: ListedTool[] }[] = [];
  for (const l of listings) {
    if ('error' in l) problems.push(l.error);
    else if (l.tools.length === 0)
      problems.push(note('NO_TOOLS', l.server.path, `${l.server.upstream.name} lists no tools; nothing is drafted for it`));
    else listed.push({ server: l.server.upstream.name, path: l.server.path, tools: l.tools });
  }
  const tools = draftTools(listed, problems);
  const placed = placeProblems(problems, read.rangeOf);
  for (const p of placed) io.stderr.write(`${formatDiagnostic(file, p)}\n`);
  if (tools.length === 0) {
    io.stderr.write(
      `${formatDiagnostic(file, { code: 'NOTHING_TO_IMPORT', severity: 'error', message: 'no server listed a tool to draft; nothing is saved' })}\n`,
    );
    return EXIT_INVALID;
  }

  const used = new Set(tools.map((t) => t.server));
  const servers = config.servers.filter((s) => used.has(s.upstream.name));
  const drafts = draftDocuments(ids, tools, servers, running, basename(file));
  const invalid = await checkDrafts(ctx, drafts, running?.servers ?? []);
  if (invalid.length > 0) {
    for (const line of invalid) io.stderr.write(`${line}\n`);
    return EXIT_INVALID;
  }
  const variables = config.variables.filter((v) => used.has(v.server));
  return { drafts, tools, listings, variables, used, problems: placed };
}

/**
 * The definitions the servers listed are seen, so an owner can review and pin them once the drafts run
 * (docs/mcp.md, "Pinned tool definitions") without a refresh first.
 */
export function recordListings(ctx: SqliteAppContext, drafted: DraftedImport): void {
  for (const l of drafted.listings)
    if ('tools' in l && drafted.used.has(l.server.upstream.name)) recordListed(ctx.db, l.server.upstream.name, l.tools, ctx.now());
}

export function timeoutOf(text: string | undefined): number {
  if (text === undefined) return DEFAULT_TIMEOUT_SECONDS * 1000;
  if (!/^[0-9]{1,7}$/.test(text) || Number(text) < 1)
    throw new CliError('USAGE', `--upstream-timeout is a whole number of seconds from 1, got ${text}`);
  return Number(text) * 1000;
}

/** The documents the import would make that have versions already: it never writes over one. */
async function existing(ctx: AppContext, ids: string[]): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  for (const id of ids) {
    if ((await ctx.store.history(id)).length === 0) continue;
    out.push({
      code: 'DOCUMENT_EXISTS',
      severity: 'error',
      message: `${id} has versions already; nothing is saved (choose another --agent or --catalogue)`,
    });
  }
  return out;
}

/** Lists one server's tools as the gateway would reach it, with the values of the client's file for its variables. */
async function listTools(server: ClientServer, timeoutMs: number): Promise<Listing> {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, ...server.values };
  const pool = new UpstreamPool([server.upstream], env);
  try {
    return { server, tools: await pool.listTools(server.upstream.name, { timeoutMs }) };
  } catch (err) {
    const code = err instanceof UpstreamError ? err.code : 'UPSTREAM_FAILED';
    const message = `${(err as Error).message}; nothing is drafted for ${server.upstream.name}, the other servers are`;
    return { server, error: { code, severity: 'error', path: server.path, message } };
  } finally {
    await pool.close();
  }
}

function draftDocuments(
  ids: { catalogue: string; policy: string; agent: string },
  tools: readonly DraftTool[],
  servers: readonly ClientServer[],
  running: { text: string; servers: readonly Upstream[] } | undefined,
  source: string,
): { id: string; text: string }[] {
  const added = servers.filter((s) => !s.existing).map((s) => s.upstream);
  const drafts: { id: string; text: string }[] = [];
  if (added.length > 0) {
    const all = [...(running?.servers ?? []), ...added];
    const appended = upstreamsText(running, added, source);
    const back = readUpstreams(appended);
    const same = back.ok && JSON.stringify(back.upstreams.servers) === JSON.stringify(all);
    drafts.push({ id: UPSTREAMS_ID, text: same ? appended : upstreamsTextAfresh(all) });
  }
  drafts.push({ id: ids.catalogue, text: catalogueText(tools, source) });
  drafts.push({ id: ids.policy, text: policyText(tools) });
  drafts.push({ id: ids.agent, text: agentText(ids.catalogue, ids.policy, tools, source) });
  return drafts;
}

/** Every draft through its own reader, the catalogue against the upstreams it will run beside; the problems as lines. */
async function checkDrafts(
  ctx: AppContext,
  drafts: readonly { id: string; text: string }[],
  running: readonly Upstream[],
): Promise<string[]> {
  const known = new Set([...(await ctx.store.list()), ...drafts.map((d) => d.id)]);
  const upstreams = drafts.find((d) => d.id === UPSTREAMS_ID);
  const read = upstreams ? readUpstreams(upstreams.text) : undefined;
  const servers = new Set((read?.ok ? read.upstreams.servers : running).map((s) => s.name));
  const lines: string[] = [];
  for (const d of drafts) {
    const problems = validateDocument(d.id, d.text, { exists: (id) => known.has(id) }).problems;
    if (documentKindOf(d.id) === 'catalogue')
      problems.push(...readCatalogue(d.text, catalogueFormatOf(d.id) ?? 'yaml', { upstreams: servers }).problems);
    for (const p of problems) lines.push(formatDiagnostic(d.id, p));
  }
  return lines;
}

/** Holds every edit as a version that does not run, whoever made it. */
class HoldEveryEdit implements EditWriter {
  constructor(private readonly store: AppContext['store']) {}
  submit(edit: ProposedEdit, impact: EditImpact) {
    return saveEdit(this.store, edit, impact, false);
  }
}

/** Saves the drafts through the edit seam, each as a version that does not run; undefined when one is refused. */
export async function saveDrafts(
  ctx: AppContext,
  drafts: readonly { id: string; text: string }[],
  author: ProposedEdit['author'],
  reason: string,
  io: CliIo,
): Promise<Saved[] | undefined> {
  const seam = new EditSeam({
    store: ctx.store,
    kindOf: documentKindOf,
    validators: engineValidators(),
    wrapWriter: () => new HoldEveryEdit(ctx.store),
  });
  const saved: Saved[] = [];
  for (const d of drafts) {
    const outcome = await seam.submit({ kind: 'document', document: d.id, content: d.text, author, reason });
    if (outcome.status !== 'saved_not_running' || outcome.version === undefined) {
      for (const r of outcome.reasons) io.stderr.write(`${formatDiagnostic(d.id, r)}\n`);
      if (saved.length > 0)
        io.stderr.write(`saved before the refusal, not running: ${saved.map((s) => `${s.id} version ${s.sequence}`).join(', ')}\n`);
      return undefined;
    }
    saved.push({ id: d.id, sequence: outcome.version.sequence });
  }
  return saved;
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

function note(code: Code, path: string, message: string): Diagnostic {
  return { code, severity: 'warning', path, message };
}
