// tollgate policy validate: exit 0 valid, 1 invalid, 2 unreadable or not JSON.
import { diagnosticJson, formatDiagnostic } from '@tollgate/engine/source';
import { failureProblems } from '../failure-json.ts';
import { CliError, type CliIo, EXIT_INVALID, EXIT_OK } from '../io.ts';
import type { ParsedOptions } from '../options.ts';
import { loadMembers, loadPolicy, loadTools } from './load-policy.ts';

export function policyValidate(file: string, options: ParsedOptions, io: CliIo): number {
  let loaded: ReturnType<typeof loadPolicy>;
  try {
    const members = loadMembers(options.members);
    const tools = loadTools(options.tools);
    loaded = loadPolicy(file, { members, tools });
  } catch (err) {
    if (options.json && err instanceof CliError) {
      // Machine readers get JSON even for unreadable input, each problem with its own members; the exit code still says 2.
      const errors = failureProblems(err, file);
      io.stdout.write(`${JSON.stringify({ valid: false, revision: null, errors, warnings: [] }, null, 2)}\n`);
      return err.exitCode;
    }
    throw err;
  }
  if (options.json) {
    const out = {
      valid: loaded.valid,
      revision: loaded.revision,
      errors: loaded.errors.map(diagnosticJson),
      warnings: loaded.warnings.map(diagnosticJson),
    };
    io.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  } else {
    for (const e of loaded.errors) io.stdout.write(`${formatDiagnostic(file, e)}\n`);
    for (const w of loaded.warnings) io.stdout.write(`${formatDiagnostic(file, w)}\n`);
    if (loaded.valid) io.stdout.write(`${file}: valid, language revision ${loaded.revision}\n`);
    else io.stdout.write(`${file}: invalid, ${loaded.errors.length} problem${loaded.errors.length === 1 ? '' : 's'}\n`);
  }
  return loaded.valid ? EXIT_OK : EXIT_INVALID;
}
