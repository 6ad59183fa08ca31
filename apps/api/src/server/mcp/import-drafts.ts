// Drafting from an MCP client's configuration, the one path `tollgate mcp import` and `POST /v1/mcp/import` share:
// read the configuration, list every server's tools, draft the upstreams, a catalogue, a deny-by-default policy and
// an agent, check each draft with its own reader, and save them as versions that do not run (docs/mcp.md,
// "Starting from what you have"). The values of the servers' variables are used to list tools and written nowhere.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import {
  type Code,
  catalogueFormatOf,
  documentKindOf,
  exampleSuiteIdOf,
  readCatalogue,
  readUpstreams,
  UPSTREAMS_ID,
  type Upstream,
  validateDocument,
} from '@tollgate/engine';
import { type Diagnostic, placeProblems, type Range } from '@tollgate/engine/source';
import { type EditImpact, EditSeam, type EditWriter, engineValidators, type ProposedEdit, saveEdit } from '@tollgate/store';
import type { AppContext } from '../context.ts';
import { type ClientServer, clientConfigProblem, readClientConfig, type Variable } from './import-config.ts';
import {
  agentText,
  catalogueText,
  type DraftTool,
  draftTools,
  examplesText,
  type ListedTool,
  policyText,
  upstreamsText,
  upstreamsTextAfresh,
} from './import-texts.ts';
import { UpstreamError, UpstreamPool } from './upstream-pool.ts';

/** How long each server may take to start and list its tools, unless the caller bounds it otherwise. */
export const DEFAULT_IMPORT_TIMEOUT_MS = 30_000;

/** A server's tools as listed, or why they could not be. */
export type Listing = { server: ClientServer; tools: Tool[] } | { server: ClientServer; error: Diagnostic };

/** A draft saved as a version that does not run. */
export interface SavedDraft {
  id: string;
  sequence: number;
}

/** A problem of one drafted document, for the document it is in. */
export interface DraftProblem {
  id: string;
  problem: Diagnostic;
}

export interface ImportRequest {
  /** The client's configuration as the exact JSON reader read it. */
  config: unknown;
  /** Where a JSON Pointer of the configuration is in its text, to place the problems. */
  rangeOf?: (path: string) => Range | undefined;
  /** The documents it drafts: they must have no version yet. */
  ids: { catalogue: string; policy: string; agent: string };
  /**
   * Whether to draft the policy's example suite too (`policies/<agent>.examples.json`): the console's first run
   * runs it before activating; the CLI drafts none.
   */
  examples?: boolean;
  timeoutMs: number;
  /** Expands `${NAME}` in the configuration's values (the importing shell's, or the server's, environment). */
  env: NodeJS.ProcessEnv;
  /** What the drafts' comments say they were drafted from: a file's name, or "the console". */
  source: string;
  author: ProposedEdit['author'];
  reason: string;
  /** What DOCUMENT_EXISTS tells the caller to do instead: the CLI's flags, the console's agent name. */
  insteadOfExisting: string;
}

/** What an import came to: one refusal (nothing saved, unless `saved` says so), or the drafts saved. */
export type ImportOutcome =
  | { status: 'not_config'; problems: Diagnostic[] }
  | { status: 'exists'; problems: Diagnostic[] }
  | { status: 'nothing'; problems: Diagnostic[] }
  | { status: 'invalid_drafts'; problems: Diagnostic[]; drafts: DraftProblem[]; saved: SavedDraft[] }
  | { status: 'refused'; problems: Diagnostic[]; drafts: DraftProblem[]; saved: SavedDraft[] }
  | {
      status: 'saved';
      problems: Diagnostic[];
      saved: SavedDraft[];
      tools: DraftTool[];
      listings: Listing[];
      variables: Variable[];
    };

/**
 * Drafts from a client's configuration and saves every draft as a version that does not run, or refuses and
 * saves nothing. `problems` are the configuration's (placed in its text) whatever the outcome.
 *
 * @example
 * const out = await importDrafts(ctx, { config, ids, timeoutMs: 30_000, env: process.env, source: 'claude.json', author, reason });
 * if (out.status === 'saved') out.saved // [{ id: 'mcp/servers.yaml', sequence: 1 }, ...]
 */
export function importDrafts(ctx: AppContext, r: ImportRequest): Promise<ImportOutcome> {
  // One import at a time in a process: the check that no draft exists and the saves are one step, so two
  // imports of one agent at once give one set of drafts and one DOCUMENT_EXISTS, never a second version.
  const run = importing.then(() => importOnce(ctx, r));
  importing = run.catch(() => undefined);
  return run;
}

/** The import running now, which the next waits for. */
let importing: Promise<unknown> = Promise.resolve();

/** What drafting from a configuration needs: the request less what saving needs. */
export type DraftRequest = Omit<ImportRequest, 'author' | 'reason'>;

/** The drafts made from a configuration, not saved yet, or why there are none. */
export type DraftOutcome =
  | { status: 'not_config' | 'exists' | 'nothing'; problems: Diagnostic[] }
  | { status: 'invalid_drafts'; problems: Diagnostic[]; drafts: DraftProblem[] }
  | {
      status: 'drafted';
      problems: Diagnostic[];
      drafts: { id: string; text: string }[];
      tools: DraftTool[];
      listings: Listing[];
      variables: Variable[];
      /** The servers a tool was drafted for. */
      used: Set<string>;
    };

/**
 * Lists every server's tools and drafts the documents of `r.ids` (and the upstreams), checked by their own readers,
 * saving nothing: `importDrafts` saves them, and `tollgate init` saves them beside its own.
 */
export async function draftFromConfig(ctx: AppContext, r: DraftRequest): Promise<DraftOutcome> {
  const place = (problems: Diagnostic[]) => (r.rangeOf ? placeProblems(problems, r.rangeOf) : problems);
  const notConfig = clientConfigProblem(r.config);
  if (notConfig !== undefined) return { status: 'not_config', problems: place([notConfig]) };
  const taken = await existing(
    ctx,
    [...Object.values(r.ids), ...(r.examples ? [exampleSuiteIdOf(r.ids.policy) as string] : [])],
    r.insteadOfExisting,
  );
  if (taken.length > 0) return { status: 'exists', problems: taken };

  const runningText = (await ctx.store.get(UPSTREAMS_ID).catch(() => undefined))?.text;
  const runningRead = runningText === undefined ? undefined : readUpstreams(runningText);
  const running = runningRead?.ok ? { text: runningText as string, servers: runningRead.upstreams.servers } : undefined;
  const config = readClientConfig(r.config, running?.servers ?? [], r.env);

  const listings = await Promise.all(config.servers.map((server) => listTools(server, r.timeoutMs)));
  const problems = [...config.problems];
  const listed: { server: string; path: string; tools: ListedTool[] }[] = [];
  for (const l of listings) {
    if ('error' in l) problems.push(l.error);
    else if (l.tools.length === 0)
      problems.push(note('NO_TOOLS', l.server.path, `${l.server.upstream.name} lists no tools; nothing is drafted for it`));
    else listed.push({ server: l.server.upstream.name, path: l.server.path, tools: l.tools });
  }
  const tools = draftTools(listed, problems);
  const placed = place(problems);
  if (tools.length === 0) return { status: 'nothing', problems: placed };

  const used = new Set(tools.map((t) => t.server));
  const servers = config.servers.filter((s) => used.has(s.upstream.name));
  const drafts = draftDocuments(r.ids, tools, servers, running, r.source);
  // The suite after the policy it tests, before the agent: the order a person activates them in.
  if (r.examples) drafts.splice(drafts.length - 1, 0, { id: exampleSuiteIdOf(r.ids.policy) as string, text: examplesText(tools) });
  const invalid = await checkDrafts(ctx, drafts, running?.servers ?? []);
  if (invalid.length > 0) return { status: 'invalid_drafts', problems: placed, drafts: invalid };
  const variables = config.variables.filter((v) => used.has(v.server));
  return { status: 'drafted', problems: placed, drafts, tools, listings, variables, used };
}

/**
 * The definitions the servers listed are seen, so an owner can review and pin them once the drafts run
 * (docs/mcp.md, "Pinned tool definitions") without a refresh first.
 */
export async function recordListings(ctx: AppContext, listings: readonly Listing[], used: ReadonlySet<string>): Promise<void> {
  for (const l of listings)
    if ('tools' in l && used.has(l.server.upstream.name)) await ctx.state.recordListed(l.server.upstream.name, l.tools, ctx.now());
}

async function importOnce(ctx: AppContext, r: ImportRequest): Promise<ImportOutcome> {
  const d = await draftFromConfig(ctx, r);
  if (d.status === 'invalid_drafts') return { ...d, saved: [] };
  if (d.status !== 'drafted') return d;
  const saving = await saveDrafts(ctx, d.drafts, r.author, r.reason);
  if ('refused' in saving) return { status: 'refused', problems: d.problems, drafts: saving.refused, saved: saving.saved };
  await recordListings(ctx, d.listings, d.used);
  return { status: 'saved', problems: d.problems, saved: saving.saved, tools: d.tools, listings: d.listings, variables: d.variables };
}

/** The documents the import would make that have versions already: it never writes over one. */
async function existing(ctx: AppContext, ids: string[], instead: string): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  for (const id of ids) {
    if ((await ctx.store.history(id)).length === 0) continue;
    out.push({
      code: 'DOCUMENT_EXISTS',
      severity: 'error',
      message: `${id} has versions already; nothing is saved (${instead})`,
    });
  }
  return out;
}

/** Lists one server's tools as the gateway would reach it, with the values the configuration gives its variables. */
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
  ids: ImportRequest['ids'],
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

/** Every draft through its own reader, the catalogue against the upstreams it will run beside. */
async function checkDrafts(
  ctx: AppContext,
  drafts: readonly { id: string; text: string }[],
  running: readonly Upstream[],
): Promise<DraftProblem[]> {
  const known = new Set([...(await ctx.store.list()), ...drafts.map((d) => d.id)]);
  const upstreams = drafts.find((d) => d.id === UPSTREAMS_ID);
  const read = upstreams ? readUpstreams(upstreams.text) : undefined;
  const servers = new Set((read?.ok ? read.upstreams.servers : running).map((s) => s.name));
  const out: DraftProblem[] = [];
  for (const d of drafts) {
    const problems = validateDocument(d.id, d.text, { exists: (id) => known.has(id) }).problems;
    if (documentKindOf(d.id) === 'catalogue')
      problems.push(...readCatalogue(d.text, catalogueFormatOf(d.id) ?? 'yaml', { upstreams: servers }).problems);
    for (const problem of problems) out.push({ id: d.id, problem });
  }
  return out;
}

/** Holds every edit as a version that does not run, whoever made it. */
class HoldEveryEdit implements EditWriter {
  constructor(private readonly store: AppContext['store']) {}
  submit(edit: ProposedEdit, impact: EditImpact) {
    return saveEdit(this.store, edit, impact, false);
  }
}

/** Saves the drafts through the edit seam, each as a version that does not run, stopping at the first refused. */
export async function saveDrafts(
  ctx: AppContext,
  drafts: readonly { id: string; text: string }[],
  author: ProposedEdit['author'],
  reason: string,
): Promise<{ saved: SavedDraft[] } | { saved: SavedDraft[]; refused: DraftProblem[] }> {
  const seam = new EditSeam({
    store: ctx.store,
    kindOf: documentKindOf,
    validators: engineValidators(),
    wrapWriter: () => new HoldEveryEdit(ctx.store),
  });
  const saved: SavedDraft[] = [];
  for (const d of drafts) {
    const outcome = await seam.submit({ kind: 'document', document: d.id, content: d.text, author, reason });
    if (outcome.status !== 'saved_not_running' || outcome.version === undefined) {
      return { saved, refused: outcome.reasons.map((problem) => ({ id: d.id, problem })) };
    }
    ctx.events.publish({ type: 'document', id: d.id, sequence: outcome.version.sequence });
    saved.push({ id: d.id, sequence: outcome.version.sequence });
  }
  return { saved };
}

function note(code: Code, path: string, message: string): Diagnostic {
  return { code, severity: 'warning', path, message };
}
