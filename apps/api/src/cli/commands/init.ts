// tollgate init [DIR]: a workspace of one's own. An owner and their key, one agent and its key, a catalogue, a
// policy from a template with its example suite (or drafts from an MCP client's file, as `mcp import` makes them)
// and the settings, built in a folder beside DIR and renamed into place whole. Every document is a version that
// does not run: nothing runs until a person activates it (docs/cli.md, "tollgate init").
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { createFromTemplate } from '@tollgate/engine/policy';
import { formatDiagnostic } from '@tollgate/engine/source';
import { StoreError } from '@tollgate/store';
import { openContext, type SqliteAppContext } from '../../server/sqlite-context.ts';
import { OPERATOR } from '../../server/state/members/identity-store.ts';
import { ROLE_GRANTS } from '../../server/state/members/model.ts';
import { CliError, type CliIo, EXIT_INVALID, EXIT_OK } from '../io.ts';
import { custodialKeysOf } from '../open-workspace.ts';
import type { ParsedOptions } from '../options.ts';
import { DEFAULT_TEMPLATE, type InitAnswers, resolveAnswers, type Terminal, templateProblem } from './init-answers.ts';
import {
  importedExamples,
  initIds,
  jsonText,
  SETTINGS_TEXT,
  type TemplateDraft,
  templateAgentText,
  templateCatalogueText,
} from './init-drafts.ts';
import { made } from './keys.ts';
import {
  type ClientFile,
  type DraftedImport,
  draftImport,
  readClientFile,
  recordListings,
  type Saved,
  saveDrafts,
  timeoutOf,
} from './mcp-import.ts';

const AUTHOR = { kind: 'system', label: 'tollgate init' } as const;
/** What a data folder holds once a node has opened it: either says a workspace is there. */
const WORKSPACE_MARKS = ['documents', 'tollgate.db'];

interface Made {
  dir: string;
  owner: { id: string; name: string; key_id: string; key: string };
  agent: { name: string; key_id: string; key: string };
  template: string | undefined;
  from_mcp: string | undefined;
  documents: Saved[];
  drafted: DraftedImport | undefined;
}

/**
 * Runs `tollgate init`. `terminal` is the process's terminal when stdin and stdout are both one: the answers no
 * flag gave are asked there, unless --yes or --json (a script) takes every default.
 */
export async function init(rest: string[], options: ParsedOptions, io: CliIo, terminal: Terminal | undefined): Promise<number> {
  if (rest.length > 1) throw new CliError('USAGE', `expected at most one DIR, got ${rest.join(' ')}`);
  if (rest.length === 1 && options.data !== undefined && resolve(rest[0] as string) !== resolve(options.data))
    throw new CliError('USAGE', 'give the folder once: DIR or --data DIR');
  const fromMcp = options['from-mcp'];
  if (fromMcp !== undefined && (options.template !== undefined || options.param !== undefined))
    throw new CliError('USAGE', '--from-mcp drafts the policy from the servers it lists; --template and --param are for a template');
  if (options.template !== undefined) {
    const problem = templateProblem(options.template);
    if (problem !== undefined) throw new CliError('UNKNOWN_TEMPLATE', `tollgate init: UNKNOWN_TEMPLATE: ${problem}`, EXIT_INVALID);
  }
  const params = paramsOf(options.param);
  const timeoutMs = timeoutOf(options['upstream-timeout']);
  const env = process.env.TOLLGATE_DATA === '' ? undefined : process.env.TOLLGATE_DATA;
  const prompts = options.yes !== true && options.json !== true ? terminal : undefined;
  const answers = await resolveAnswers(
    {
      data: rest[0] ?? options.data ?? env,
      owner: options.owner,
      agent: options.agent,
      template: options.template,
      fromMcp: fromMcp !== undefined,
    },
    prompts,
  );
  // Read before anything is made: a refused template or client file makes no folder.
  const template = answers.template === undefined ? undefined : templateDraft(answers.template, params, io);
  if (typeof template === 'number') return template;
  const client = fromMcp === undefined ? undefined : readClientFile(fromMcp, io);
  if (typeof client === 'number') return client;
  const keyFiles = keyFilesOf(options);

  const dir = resolve(answers.data);
  const aside = placeFor(dir, options.force === true);
  const temp = tempBeside(dir);
  let built: Made | number;
  try {
    built = await build(temp, dir, answers, { template, client, fromMcp, timeoutMs }, options, io);
    if (typeof built === 'number') {
      rmSync(temp, { recursive: true, force: true });
      return built;
    }
    if (aside !== undefined) renameSync(dir, aside);
    // A rename onto an empty folder replaces it; onto one that gained files meanwhile it fails, and nothing moves.
    renameSync(temp, dir);
  } catch (err) {
    rmSync(temp, { recursive: true, force: true });
    if (err instanceof CliError) throw err;
    const why = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new CliError('UNWRITABLE', `tollgate init: UNWRITABLE: the workspace could not be put at ${dir} (${why}); nothing was made`);
  }
  if (aside !== undefined) io.stderr.write(`tollgate init: the workspace that was at ${dir} is now at ${aside}\n`);
  const keyProblem = writeKeyFiles(keyFiles, built, options.force === true);
  report(io, options, built, answers);
  if (keyProblem !== undefined) {
    io.stderr.write(`${keyProblem.message}\n`);
    return keyProblem.exitCode;
  }
  return EXIT_OK;
}

/** --param KEY=VALUE, as `policy template create` reads them. */
function paramsOf(pairs: readonly string[] | undefined): Record<string, string> {
  const params: Record<string, string> = {};
  for (const pair of pairs ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new CliError('USAGE', `--param takes KEY=VALUE, got "${pair}"`);
    const key = pair.slice(0, eq);
    if (Object.hasOwn(params, key)) throw new CliError('USAGE', `--param ${key} is given twice`);
    params[key] = pair.slice(eq + 1);
  }
  return params;
}

/** The template's draft, or exit 1 with each refused parameter on its own line (as `policy template create`). */
function templateDraft(name: string, params: Record<string, string>, io: CliIo): TemplateDraft | number {
  const draft = createFromTemplate(name, params);
  if (draft.ok) return draft;
  for (const e of draft.errors) io.stderr.write(`${formatDiagnostic(name, e)}\n`);
  return EXIT_INVALID;
}

/**
 * Where the workspace already at `dir` goes with --force (a sibling named with the time; never deleted), undefined
 * when `dir` is missing or empty. A workspace without --force is WORKSPACE_EXISTS; a folder holding anything else
 * is FOLDER_NOT_EMPTY, --force or not: init never moves files it did not make.
 */
function placeFor(dir: string, force: boolean): string | undefined {
  let entries: string[];
  try {
    if (!statSync(dir).isDirectory()) throw new CliError('UNREADABLE', `tollgate init: UNREADABLE: ${dir} is not a folder`);
    entries = readdirSync(dir);
  } catch (err) {
    if (err instanceof CliError) throw err;
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CliError('UNREADABLE', `tollgate init: UNREADABLE: ${dir} cannot be read (${(err as NodeJS.ErrnoException).code})`);
  }
  if (entries.length === 0) return undefined;
  if (!entries.some((e) => WORKSPACE_MARKS.includes(e)))
    throw new CliError(
      'FOLDER_NOT_EMPTY',
      `tollgate init: FOLDER_NOT_EMPTY: ${dir} holds files and no workspace; choose another DIR`,
      EXIT_INVALID,
    );
  if (!force)
    throw new CliError(
      'WORKSPACE_EXISTS',
      `tollgate init: WORKSPACE_EXISTS: ${dir} holds a workspace already; serve it (tollgate serve --data ${dir}), or pass --force to move it aside and start afresh`,
      EXIT_INVALID,
    );
  return `${dir}.replaced-${new Date().toISOString().replace(/[:.]/g, '-')}`;
}

/** A new folder beside `dir` (same file system, so the rename is one step), made with the parent. */
function tempBeside(dir: string): string {
  try {
    mkdirSync(dirname(dir), { recursive: true });
    return mkdtempSync(join(dirname(dir), `.${basename(dir)}.init-`));
  } catch (err) {
    throw new CliError(
      'UNWRITABLE',
      `tollgate init: UNWRITABLE: ${dirname(dir)} cannot hold a new folder (${(err as NodeJS.ErrnoException).code})`,
    );
  }
}

/** Makes the workspace in `temp`: the members and keys, then every document as a version that does not run. */
async function build(
  temp: string,
  dir: string,
  answers: InitAnswers,
  source: { template: TemplateDraft | undefined; client: ClientFile | undefined; fromMcp: string | undefined; timeoutMs: number },
  options: ParsedOptions,
  io: CliIo,
): Promise<Made | number> {
  const custodial = custodialKeysOf(options, 'init', temp);
  const ctx: SqliteAppContext = await openContext(temp, { watch: false, custodial }).catch((err: unknown) => {
    if (err instanceof StoreError) throw new CliError('STORE_DAMAGED', `tollgate init: ${err.message}`);
    throw err;
  });
  try {
    const ids = initIds(answers.agent);
    let drafts: { id: string; text: string }[];
    let drafted: DraftedImport | undefined;
    if (source.client !== undefined) {
      const fromFile = await draftImport(ctx, source.fromMcp as string, source.client, ids, source.timeoutMs, io);
      if (typeof fromFile === 'number') return fromFile;
      drafted = fromFile;
      // The agent names the others, so it comes last; the suite and the settings go before it.
      const agentDraft = fromFile.drafts.filter((d) => d.id === ids.agent);
      drafts = [
        ...fromFile.drafts.filter((d) => d.id !== ids.agent),
        { id: ids.examples, text: jsonText(importedExamples(fromFile.tools)) },
        { id: ids.settings, text: SETTINGS_TEXT },
        ...agentDraft,
      ];
    } else {
      const t = source.template as TemplateDraft;
      drafts = [
        { id: ids.catalogue, text: templateCatalogueText(t) },
        { id: ids.policy, text: jsonText(t.document) },
        { id: ids.examples, text: jsonText(t.examples) },
        { id: ids.settings, text: SETTINGS_TEXT },
        { id: ids.agent, text: templateAgentText(ids, t) },
      ];
    }
    const reason =
      source.fromMcp !== undefined
        ? `drafted by tollgate init from ${basename(source.fromMcp)}`
        : `drafted by tollgate init from the ${answers.template} template`;
    const saved = await saveDrafts(ctx, drafts, AUTHOR, reason, io);
    if (saved === undefined) return EXIT_INVALID;
    if (drafted !== undefined) await recordListings(ctx, drafted);
    // The owner signs in with this key to activate the drafts; the agent's key does nothing until its agent runs.
    const owner = made(await ctx.state.identity.addMember(answers.owner, 'owner', OPERATOR), 'init');
    const ownerKey = made(
      await ctx.state.identity.issueKey({ holder: { member: owner.id }, grants: [...ROLE_GRANTS.owner], name: 'tollgate init' }, OPERATOR),
      'init',
    );
    const agentKey = made(
      await ctx.state.identity.issueKey({ holder: { agent: answers.agent }, grants: [], name: 'tollgate init' }, OPERATOR),
      'init',
    );
    return {
      dir,
      owner: { id: owner.id, name: owner.name, key_id: ownerKey.info.id, key: ownerKey.key },
      agent: { name: answers.agent, key_id: agentKey.info.id, key: agentKey.key },
      template: answers.template,
      from_mcp: source.fromMcp,
      documents: saved,
      drafted,
    };
  } finally {
    ctx.events.close();
    await ctx.close();
  }
}

/** --key-out and --agent-key-out, checked before anything is made: an existing file is kept unless --force. */
function keyFilesOf(options: ParsedOptions): { owner?: string; agent?: string } {
  const files: { owner?: string; agent?: string } = {};
  for (const [who, flag] of [
    ['owner', 'key-out'],
    ['agent', 'agent-key-out'],
  ] as const) {
    const file = options[flag];
    if (file === undefined) continue;
    if (options.force !== true && existsSync(file))
      throw new CliError('FILE_EXISTS', `${file}: FILE_EXISTS: it exists; pass --force to replace it`);
    files[who] = resolve(file);
  }
  if (files.owner !== undefined && files.owner === files.agent) throw new CliError('USAGE', '--key-out and --agent-key-out name one file');
  return files;
}

/**
 * Writes the keys asked for, each alone in its file with mode 0600 (temp file, fsync, rename). A failure is
 * reported after the keys are printed, so a key is never lost.
 */
function writeKeyFiles(files: { owner?: string; agent?: string }, built: Made, force: boolean): CliError | undefined {
  for (const [file, key] of [
    [files.owner, built.owner.key],
    [files.agent, built.agent.key],
  ] as const) {
    if (file === undefined) continue;
    const temp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
    try {
      if (!force && existsSync(file)) throw Object.assign(new Error('exists'), { code: 'EEXIST' });
      const fd = openSync(temp, 'wx', 0o600);
      try {
        writeSync(fd, `${key}\n`);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(temp, file);
    } catch (err) {
      rmSync(temp, { force: true });
      return new CliError(
        'UNWRITABLE',
        `tollgate init: UNWRITABLE: ${file} (${(err as NodeJS.ErrnoException).code}); the key is printed above, once`,
      );
    }
  }
  return undefined;
}

/** The folder as a person types it from here: relative when it is below the working folder. */
function shown(dir: string): string {
  const rel = relative(process.cwd(), dir);
  return rel !== '' && !rel.startsWith('..') ? rel : dir;
}

function report(io: CliIo, options: ParsedOptions, m: Made, answers: InitAnswers): void {
  const data = shown(m.dir);
  const steps = nextSteps(data, m);
  if (options.json) {
    const out = {
      data: m.dir,
      owner: { ...m.owner, role: 'owner' },
      agent: m.agent,
      template: m.template ?? null,
      from_mcp: m.from_mcp ?? null,
      running: false,
      documents: m.documents.map((d) => ({ id: d.id, sequence: d.sequence, running: false })),
      ...(m.drafted ? { tools: m.drafted.tools, variables: m.drafted.variables } : {}),
      next_steps: steps,
    };
    io.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    return;
  }
  const w = (line: string) => io.stdout.write(`${line}\n`);
  const source =
    m.from_mcp !== undefined ? `drafted from ${m.from_mcp}` : `policy from the ${answers.template ?? DEFAULT_TEMPLATE} template`;
  w(`tollgate init: a workspace in ${data} (${source})`);
  w('');
  w('Keys, shown this once (stored only as hashes; tollgate keys rotate makes new ones):');
  w(`  owner  ${m.owner.name}  ${m.owner.key}`);
  w(`  agent  ${m.agent.name}  ${m.agent.key}`);
  w('');
  w('NOTHING RUNS YET. Saved as versions that do not run:');
  for (const d of m.documents) w(`  ${d.id} version ${d.sequence}`);
  if (m.drafted && m.drafted.variables.length > 0) {
    w('');
    w('Set these variables in the environment of the gateway (tollgate serve, tollgate mcp); their values are in your');
    w('client file and were written nowhere:');
    for (const v of m.drafted.variables) w(`  ${v.name}  (${v.server}, ${v.from})`);
  }
  w('');
  w('Next:');
  steps.forEach((s, i) => {
    const [first, ...more] = s.split('\n');
    w(`  ${i + 1}. ${first}`);
    for (const line of more) w(`     ${line}`);
  });
}

/** What to run, in order: serve, sign in, activate, authorize, connect the agent. */
function nextSteps(data: string, m: Made): string[] {
  const url = 'http://127.0.0.1:8787';
  const activate = m.documents.map(
    (d) =>
      `curl -X POST -H "Authorization: Bearer $OWNER_KEY" -H 'content-type: application/json' -d '{"sequence": ${d.sequence}}' ${url}/v1/documents/${encodeURIComponent(d.id)}/activate`,
  );
  const connect =
    m.from_mcp !== undefined
      ? `Connect the MCP client: in its configuration, run tollgate mcp --agent ${m.agent.name} --data ${data}\nwith TOLLGATE_AGENT_KEY set to the agent's key (docs/mcp.md, "Connecting a desktop MCP client").`
      : `Let the agent call: POST ${url}/v1/agents/${m.agent.name}/calls {"tool", "arguments"} with the agent's key\n(docs/api.md); over MCP once each catalogue tool names its upstream (docs/mcp.md).`;
  return [
    `Serve it: tollgate serve --data ${data}`,
    `Open ${url}/ and sign in with the owner's key (export OWNER_KEY=<the owner's key> for the commands below).`,
    `Review and activate each version above, in that order: the console's Documents page (each one's history), or\n${activate.join('\n')}`,
    `Authorize the catalogue's tools: the catalogue page's Authorize buttons (docs/catalogue.md, "The authorized binding").`,
    connect,
  ];
}
