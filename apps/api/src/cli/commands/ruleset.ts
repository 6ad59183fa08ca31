// tollgate ruleset validate FILE --data DIR / tollgate ruleset run ID --call CALL.json --data DIR: a rule
// set's text checked against a data folder's store (every refusal naming the rules at fault), and one run
// of a stored set's version against a call, exactly as the API's validate route runs it.
import { type Diagnostic, diagnosticJson, formatDiagnostic, type RulesetCall, readJsonText, readRuleset } from '@tollgate/engine';
import type { AppContext } from '../../server/context.ts';
import { ApiError } from '../../server/errors.ts';
import { pinContextFor, pinnedIdsOf } from '../../server/rulesets/ruleset-versions.ts';
import { runRulesetVersion } from '../../server/rulesets/run-version.ts';
import { openContext } from '../../server/sqlite-context.ts';
import { existingDataFolder } from '../data-folder.ts';
import { CliError, type CliIo, EXIT_INVALID, EXIT_OK, EXIT_UNREADABLE, refusedInput } from '../io.ts';
import { required } from '../options.ts';
import { MAX_DOCUMENT_BYTES, readJsonFile, readTextFile } from '../read-input.ts';

async function withData<T>(data: string | undefined, command: string, run: (ctx: AppContext) => Promise<T>): Promise<T> {
  // Both only read: a folder that is not there is refused, never made empty and checked against.
  const ctx = await openContext(existingDataFolder(required(data, 'data DIR'), command), { watch: false });
  try {
    return await run(ctx);
  } catch (err) {
    // The API's refusals carry a code and a message: the CLI says the same, without a stack trace.
    if (err instanceof ApiError) {
      const rules = (err.details as { rules?: string[] } | undefined)?.rules;
      const more = rules && rules.length > 0 ? ` (rules: ${rules.join(', ')})` : '';
      throw new CliError(err, `${err.code}: ${err.message}${more}`, err.status === 404 || err.status === 409 ? EXIT_INVALID : 2);
    }
    throw err;
  } finally {
    await ctx.close();
  }
}

function problemJson(p: Diagnostic) {
  return diagnosticJson(p);
}

export async function rulesetValidate(file: string, options: { data?: string; json?: boolean }, io: CliIo): Promise<number> {
  const text = readTextFile(file, MAX_DOCUMENT_BYTES);
  // Text that is not JSON at all (an empty file too) is input that cannot be read: exit 2, as docs/cli.md's
  // exit codes say, before any data folder is opened.
  const json = readJsonText(text);
  if (!json.ok) {
    const unreadable = { ...json.diagnostic, path: '' };
    if (options.json) {
      const body = { valid: false, rules: [], problems: [problemJson(unreadable)] };
      io.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
    } else {
      io.stdout.write(`${formatDiagnostic(file, unreadable)}\n${file}: unreadable\n`);
    }
    return EXIT_UNREADABLE;
  }
  return withData(options.data, 'ruleset validate', async (ctx) => {
    const read = readRuleset(text, await pinContextFor(ctx, pinnedIdsOf(text)));
    if (options.json) {
      const body = read.ok
        ? { valid: true, rules: [], problems: [] }
        : {
            valid: false,
            rules: read.rules,
            problems: read.problems.map(problemJson),
          };
      io.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
      return read.ok ? EXIT_OK : EXIT_INVALID;
    }
    if (read.ok) {
      io.stdout.write(`${file}: valid, ${read.ruleset.pins.length} pin${read.ruleset.pins.length === 1 ? '' : 's'}\n`);
      return EXIT_OK;
    }
    for (const p of read.problems) io.stdout.write(`${formatDiagnostic(file, p)}\n`);
    const at = read.rules.length > 0 ? `; rules at fault: ${read.rules.join(', ')}` : '';
    io.stdout.write(`${file}: refused, ${read.problems.length} problem${read.problems.length === 1 ? '' : 's'}${at}\n`);
    return EXIT_INVALID;
  });
}

export async function rulesetRun(
  id: string,
  options: { data?: string; call?: string; version?: string; json?: boolean },
  io: CliIo,
): Promise<number> {
  const callFile = required(options.call, 'call CALL.json');
  let versionId: number | undefined;
  if (options.version !== undefined) {
    if (!/^[1-9][0-9]{0,8}$/.test(options.version)) throw new CliError('USAGE', '--version is a positive integer');
    versionId = Number(options.version);
  }
  const call = readJsonFile(callFile).value;
  if (call === null || typeof call !== 'object' || Array.isArray(call) || typeof (call as { tool?: unknown }).tool !== 'string') {
    throw refusedInput(callFile, [{ code: 'INVALID_CALL', severity: 'error', message: 'a call is {"tool", "arguments", ...}' }]);
  }
  return withData(options.data, 'ruleset run', async (ctx) => {
    const run = await runRulesetVersion(ctx, id, call as RulesetCall, versionId === undefined ? {} : { versionId });
    if (options.json) {
      io.stdout.write(`${JSON.stringify(run, null, 2)}\n`);
      return EXIT_OK;
    }
    io.stdout.write(`${run.verdict} (${run.ruleset} version ${run.version_id})\n`);
    for (const r of run.results) {
      const how = r.pinned ? 'pinned' : 'running';
      io.stdout.write(
        `  ${r.result.padEnd(4)} ${r.rule_id}@${r.version_id} (${how}): ${r.decision}${r.rule ? ` by ${r.rule}` : ''}: ${r.summary}\n`,
      );
    }
    return EXIT_OK;
  });
}
