// What a command writes to, so tests run the CLI in-process and capture its output.
import type { CliCode } from '@tollgate/engine';
import { type Diagnostic, formatDiagnostic } from '@tollgate/engine/source';

export interface CliIo {
  stdout: { write(chunk: string): unknown };
  stderr: { write(chunk: string): unknown };
}

/** Exit codes: 0 success (or any decision), 1 invalid document or failed expectation, 2 unreadable input or bad usage. */
export const EXIT_OK = 0;
export const EXIT_INVALID = 1;
export const EXIT_UNREADABLE = 2;

/**
 * What a refusal passes on instead of a code of the CLI's own: a reader's Diagnostic or the API's error, whose
 * code is registered in that reader's or the API's domain. A plain string, not the registry's Code: the API's
 * error may be a service's answer (`rules compile --server`), and a newer Tollgate there may answer a code
 * this one has not registered.
 */
export interface PassedOn {
  readonly code: string;
}

/**
 * A failure that ends a command with an exit code and a message, never a stack trace. Its code is one registered
 * with the `cli` domain (packages/engine/src/codes/cli.ts; docs/cli.md, "The CLI's codes"), so a misspelled or
 * unregistered one fails the typecheck, or that of the problem it passes on.
 */
export class CliError extends Error {
  readonly exitCode: number;
  readonly code: string;
  /** The problems themselves and the file they are in, for --json output: bare messages, with line and column where placed. */
  readonly problems: { file: string; diagnostics: Diagnostic[] } | undefined;
  constructor(
    code: CliCode | PassedOn,
    message: string,
    exitCode = EXIT_UNREADABLE,
    problems?: { file: string; diagnostics: Diagnostic[] },
  ) {
    super(message);
    this.code = typeof code === 'string' ? code : code.code;
    this.exitCode = exitCode;
    this.problems = problems;
  }
}

/** The first problem of a reader's refusal, whose code the CLI passes on; a reader never refuses without one. */
export function firstProblem(problems: readonly Diagnostic[]): Diagnostic {
  const [first] = problems;
  if (first === undefined) throw new Error('a reader refused without naming a problem');
  return first;
}

/**
 * A reader's refusal of `file` as a CliError: the first problem's code, one `FILE:LINE:COLUMN: code: message`
 * line a problem for people, and the problems themselves for --json (failure-json.ts).
 *
 * @example
 * throw refusedInput('examples.json', result.problems); // exit 2
 */
export function refusedInput(file: string, problems: readonly Diagnostic[], exitCode = EXIT_UNREADABLE): CliError {
  const lines = problems.map((p) => formatDiagnostic(file, p)).join('\n');
  return new CliError(firstProblem(problems), lines, exitCode, { file, diagnostics: [...problems] });
}
