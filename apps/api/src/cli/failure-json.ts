// A failure as a --json reader gets it (docs/cli.md, "Failures under --json"): each problem with its code, its
// bare message, and its file, line and column where it has them, never one line of text to pick apart.
import { diagnosticJson } from '@tollgate/engine/source';
import type { CliError } from './io.ts';

/**
 * One problem of a failure, as --json prints it. Its code is a plain string: a failure may pass on the code a
 * service answered (`rules compile --server`), which a newer Tollgate may have registered and this one not.
 */
export type ProblemJson = Omit<ReturnType<typeof diagnosticJson>, 'code'> & { code: string; file?: string };

/**
 * The problems of a failure; `exceptIn` leaves out the file member for problems of that file (the one the
 * command names, where its own output says which file it read).
 *
 * @example
 * failureProblems(err) // [{ code: 'NOT_JSON', path: '', message: 'expected a value', line: 1, column: 1, file: 'p.json' }]
 */
export function failureProblems(err: CliError, exceptIn?: string): ProblemJson[] {
  if (err.problems === undefined) return [{ code: err.code, severity: 'error', path: '', message: err.message }];
  const { file, diagnostics } = err.problems;
  return diagnostics.map((d) => ({ ...diagnosticJson({ ...d, path: d.path ?? '' }), ...(file !== exceptIn ? { file } : {}) }));
}
