// Runs the engine over an editor's text the way the edit seam will: sheets compile, Colang parses, policies validate.
import {
  compileRules,
  compileSheet,
  type Diagnostic,
  type DocumentKind,
  documentKindOf,
  type LintCatalogue,
  type PolicyRevision,
  type Position,
  type Range,
  rangeOfDiagnostic,
  readJsonText,
  type SheetCache,
  validateDocument,
  validatePolicy,
} from '@tollgate/engine';

/** What a sheet compiles to, pretty-printed for the read-only panes; null when the sheet was refused. */
export interface CompiledOutputs {
  colang: string;
  rulebook: string;
  overlay: string;
}

/** A problem with where it starts, when the text says. */
export interface LocatedProblem extends Diagnostic {
  at?: Position;
}

export interface DocumentCheck {
  kind: DocumentKind | undefined;
  /** Errors first, then warnings (lints and policy warnings), each placed where the text allows. */
  problems: LocatedProblem[];
  /** Sheets only: the compiled panes, or null when refused. */
  outputs?: CompiledOutputs | null;
  /** Policies only: the revision the text is written in, when it validates. */
  revision?: PolicyRevision;
  /** One line: valid, or how many problems. */
  summary: string;
}

/**
 * Checks a document's text by the kind its id names.
 *
 * @example
 * checkDocument('sheets/a.rules.yaml', 'rules:\n  - action: x\n    colour: blue\n').problems[0].code // 'rule_sheet_unsupported'
 */
export function checkDocument(id: string, text: string, catalogue?: LintCatalogue, cache?: SheetCache): DocumentCheck {
  const kind = documentKindOf(id);
  if (kind === 'sheet') {
    const r = compileSheet(text, catalogue, id, cache);
    if (!r.ok) return { kind, problems: locate(r.problems), outputs: null, summary: summarize(r.problems) };
    const outputs = { colang: r.colang, rulebook: pretty(r.rulebook), overlay: pretty(r.overlay) };
    return { kind, problems: locate(r.lints), outputs, summary: summarize(r.lints) };
  }
  if (kind === 'colang') {
    const r = compileRules(text, 'colang', catalogue, id);
    const problems = locate(r.ok ? r.lints : r.problems);
    return { kind, problems, summary: summarize(problems) };
  }
  if (kind === 'policy') {
    const read = readJsonText(text);
    if (!read.ok) return { kind, problems: locate([read.diagnostic]), summary: summarize([read.diagnostic]) };
    const result = validatePolicy(read.value);
    const problems = locate([...read.diagnostics, ...result.errors, ...result.warnings], read.rangeOf);
    const valid = read.diagnostics.length === 0 && result.errors.length === 0;
    return valid
      ? { kind, problems, revision: result.revision, summary: summarize(problems) }
      : { kind, problems, summary: summarize(problems) };
  }
  const r = validateDocument(id, text);
  const problems = locate([...r.problems, ...r.lints]);
  return { kind, problems, summary: summarize(problems) };
}

function locate(problems: Diagnostic[], rangeOf?: (pointer: string) => Range | undefined): LocatedProblem[] {
  return problems.map((p) => {
    const at = rangeOfDiagnostic(p)?.start ?? (p.path !== undefined ? rangeOf?.(p.path)?.start : undefined);
    return at === undefined ? p : { ...p, at };
  });
}

function summarize(problems: readonly Diagnostic[]): string {
  const errors = problems.filter((p) => p.severity === 'error').length;
  const warnings = problems.length - errors;
  if (errors === 0 && warnings === 0) return 'No problems';
  const parts = [];
  if (errors > 0) parts.push(`${errors} ${errors === 1 ? 'error' : 'errors'}`);
  if (warnings > 0) parts.push(`${warnings} ${warnings === 1 ? 'warning' : 'warnings'}`);
  return parts.join(', ');
}

function pretty(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
