// Checks policy text the way the server will: exact JSON reading first, then policy@1 validation.
import {
  type Diagnostic,
  type PolicyRevision,
  type Position,
  rangeOfDiagnostic,
  readJsonText,
  type Severity,
  validatePolicy,
} from '@tollgate/engine';

/** One problem as the console lists it: the diagnostic plus where it starts in the text, when known. */
export interface Problem {
  code: string;
  severity: Severity;
  message: string;
  /** RFC 6901 pointer into the document; `""` is the whole document. */
  path?: string;
  /** Where the problem starts in the text (1-based line and column). */
  position?: Position;
}

export type PolicyStatus = { valid: true; revision: PolicyRevision; text: string } | { valid: false; text: string };

export interface PolicyCheck {
  status: PolicyStatus;
  /** Errors first, then warnings, each in the order the engine found them. */
  problems: Problem[];
  /** The same problems as the engine's diagnostics, in the same order, for the editor's markers (lib/monaco/to-markers.ts). */
  diagnostics: Diagnostic[];
}

/**
 * Checks the text of a policy@1 document.
 *
 * @example
 * checkPolicy('{"schema": "tollgate/policy@1", "default": "deny", "rules": []}').status.text
 * // 'Valid · revision 1'
 */
export function checkPolicy(text: string): PolicyCheck {
  const read = readJsonText(text);
  if (!read.ok) {
    return invalid([read.diagnostic], [toProblem(read.diagnostic)]);
  }
  const result = validatePolicy(read.value);
  const locate = (d: Diagnostic): Problem => toProblem(d, d.path === undefined ? undefined : read.rangeOf(d.path)?.start);
  const errors = [...read.diagnostics, ...result.errors];
  if (errors.length > 0) return invalid([...errors, ...result.warnings], [...errors.map(locate), ...result.warnings.map(locate)]);
  return {
    status: { valid: true, revision: result.revision, text: `Valid · revision ${result.revision}` },
    problems: result.warnings.map(locate),
    diagnostics: result.warnings,
  };
}

function invalid(diagnostics: Diagnostic[], problems: Problem[]): PolicyCheck {
  const count = problems.length;
  return { status: { valid: false, text: `${count} ${count === 1 ? 'problem' : 'problems'}` }, problems, diagnostics };
}

function toProblem(d: Diagnostic, found?: Position): Problem {
  const position = rangeOfDiagnostic(d)?.start ?? found;
  return {
    code: d.code,
    severity: d.severity,
    message: d.message,
    ...(d.path === undefined ? {} : { path: d.path }),
    ...(position === undefined ? {} : { position }),
  };
}
