// What a command writes to, so tests run the CLI in-process and capture its output.
import type { Diagnostic } from '@tollgate/engine/source';

export interface CliIo {
  stdout: { write(chunk: string): unknown };
  stderr: { write(chunk: string): unknown };
}

/** Exit codes: 0 success (or any decision), 1 invalid document or failed expectation, 2 unreadable input or bad usage. */
export const EXIT_OK = 0;
export const EXIT_INVALID = 1;
export const EXIT_UNREADABLE = 2;

/** A failure that ends a command with an exit code and a message, never a stack trace. */
export class CliError extends Error {
  readonly exitCode: number;
  readonly code: string;
  /** The problems themselves and the file they are in, for --json output: bare messages, with line and column where placed. */
  readonly problems: { file: string; diagnostics: Diagnostic[] } | undefined;
  constructor(code: string, message: string, exitCode = EXIT_UNREADABLE, problems?: { file: string; diagnostics: Diagnostic[] }) {
    super(message);
    this.code = code;
    this.exitCode = exitCode;
    this.problems = problems;
  }
}
