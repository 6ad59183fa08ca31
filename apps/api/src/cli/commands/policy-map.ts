// tollgate policy map / policy diff: a policy's decision map over a tools file, and the decision diff of two
// policy files (docs/review.md). Exit 0 whatever the decisions, 1 when a document is invalid, 2 unreadable.
import { type AnalysisLimits, AnalysisStopped, CompiledPolicy, decisionDiff, decisionMap, type PolicyDocument } from '@tollgate/engine';
import { formatDiagnostic } from '@tollgate/engine/source';
import { diffJson, toolDecisionJson } from '../../server/review/answers.ts';
import { CliError, type CliIo, EXIT_INVALID, EXIT_OK, EXIT_UNREADABLE } from '../io.ts';
import { type ParsedOptions, required } from '../options.ts';
import { loadMembers, loadPolicy, loadTools } from './load-policy.ts';

/** A policy file compiled, or its problems on stderr (undefined: the command exits 1). */
function compiledPolicy(file: string, io: CliIo): CompiledPolicy | undefined {
  const loaded = loadPolicy(file);
  if (loaded.valid) return new CompiledPolicy(loaded.document as PolicyDocument);
  for (const e of loaded.errors) io.stderr.write(`${formatDiagnostic(file, e)}\n`);
  io.stderr.write(`${file}: invalid, so it decides nothing\n`);
  return undefined;
}

/** `tollgate policy map POLICY --tools TOOLS.json [--members FILE] [--time-limit SECONDS] [--json]`: one line per tool. */
export function policyMap(file: string, options: ParsedOptions, io: CliIo): number {
  const tools = loadTools(required(options.tools, 'tools')) ?? [];
  const members = loadMembers(options.members);
  const policy = compiledPolicy(file, io);
  if (!policy) return EXIT_INVALID;
  const map = within(options, (limits) => decisionMap(policy, tools, members ? { ...limits, members } : limits));
  if (options.json) io.stdout.write(`${JSON.stringify({ tools: map.map(toolDecisionJson) }, null, 2)}\n`);
  else for (const tool of map) io.stdout.write(`${tool.words}\n`);
  return EXIT_OK;
}

/** `tollgate policy diff RUNNING CANDIDATE [--tools TOOLS.json] [--members FILE] [--time-limit SECONDS] [--json]`: one line per change. */
export function policyDiff(files: string[], options: ParsedOptions, io: CliIo): number {
  const [runningFile, candidateFile] = twoFiles(files);
  const tools = loadTools(options.tools);
  const members = loadMembers(options.members);
  const running = compiledPolicy(runningFile, io);
  const candidate = compiledPolicy(candidateFile, io);
  if (!running || !candidate) return EXIT_INVALID;
  const diff = within(options, (limits) => decisionDiff(running, candidate, tools, members ? { ...limits, members } : limits));
  if (options.json) {
    io.stdout.write(`${JSON.stringify(diffJson(diff), null, 2)}\n`);
  } else if (diff.entries.length === 0) {
    io.stdout.write('no call changes decision\n');
  } else {
    for (const entry of diff.entries) io.stdout.write(`${entry.words}\n`);
  }
  return EXIT_OK;
}

/** How long an analysis may take unless --time-limit says otherwise. */
export const DEFAULT_TIME_LIMIT_SECONDS = 60;

/**
 * Runs an analysis within `--time-limit SECONDS` (whole seconds, 60 unless given); past it the command
 * prints nothing of it and exits 2 with ANALYSIS_OVER_BUDGET (docs/review.md, "Budgets and cancelling").
 */
function within<T>(options: ParsedOptions, analyse: (limits: AnalysisLimits) => T): T {
  const text = options['time-limit'];
  if (text !== undefined && !/^[1-9][0-9]{0,5}$/.test(text)) {
    throw new CliError('USAGE', `--time-limit takes a whole number of seconds, not ${JSON.stringify(text)}`);
  }
  const seconds = text === undefined ? DEFAULT_TIME_LIMIT_SECONDS : Number(text);
  try {
    return analyse({ deadline: Date.now() + seconds * 1000 });
  } catch (err) {
    if (!(err instanceof AnalysisStopped)) throw err;
    throw new CliError({ code: err.code }, `${err.message} (--time-limit ${seconds}); nothing of it is printed`, EXIT_UNREADABLE);
  }
}

/** Exactly two positional arguments: the running version's file, then the candidate's. */
function twoFiles(files: string[]): [string, string] {
  if (files.length !== 2) {
    throw new CliError('USAGE', `expected RUNNING and CANDIDATE, got ${files.length === 0 ? 'none' : files.join(' ')}`);
  }
  return [files[0] as string, files[1] as string];
}
