// Lints of a sheet against a catalogue: advice, never a failure (docs/rule-sheets.md, "Lints").
import { codesIn } from '../codes/index.ts';
import { byPosition, type Diagnostic } from '../source/diagnostic.ts';
import type { Sheet } from './read-sheet.ts';

/** What the lints need of a catalogue: its tools' names and kinds. */
export interface LintCatalogue {
  tools: readonly { name: string; kind: 'read' | 'write' }[];
}

/** The lints' codes, each with its one line: a view of the one registry (packages/engine/src/codes/index.ts). */
export const LINT_CODES = Object.fromEntries(codesIn('lint').map((c) => [c.code, c.when.lint as string])) as Record<
  'rule_action_unknown' | 'write_ungoverned',
  string
>;

/**
 * Lints a sheet against a catalogue: `rule_action_unknown` at the rule's line, `write_ungoverned` at
 * the line of `rules:`.
 */
export function lintSheet(sheet: Sheet, catalogue: LintCatalogue): Diagnostic[] {
  const lints: Diagnostic[] = [];
  const known = new Set(catalogue.tools.map((t) => t.name));
  const named = new Set(sheet.rules.map((r) => r.action));
  // A lint is about a whole rule (or the sheet): it names the line, from its first column.
  const at = (line: number) => ({ line, column: 1, endLine: line, endColumn: 1 });
  for (const rule of sheet.rules) {
    if (!known.has(rule.action)) {
      lints.push({
        code: 'rule_action_unknown',
        severity: 'warning',
        message: `the sheet has a rule for \`${rule.action}\`, which the catalogue does not hold`,
        ...at(rule.line),
      });
    }
  }
  for (const tool of catalogue.tools) {
    if (tool.kind === 'write' && !named.has(tool.name)) {
      lints.push({
        code: 'write_ungoverned',
        severity: 'warning',
        message: `the catalogue's write \`${tool.name}\` has no rule in the sheet; name it so it is not left ungoverned by omission`,
        ...at(sheet.line),
      });
    }
  }
  return lints.sort(byPosition);
}
