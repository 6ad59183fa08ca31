// The engine's refusals and lints placed beside the rule at fault: a problem belongs to the rule whose
// lines hold the problem's line; the rest (the `rules:` line, a tab in a comment) belong to the sheet.
import type { Diagnostic } from '@tollgate/engine';
import type { RuleRow } from './read-rule-rows.ts';

export interface PlacedProblems {
  /** By the row's index in the rules list. */
  byRow: Map<number, Diagnostic[]>;
  sheet: Diagnostic[];
}

/**
 * Places each problem with the row whose lines hold it.
 *
 * @example
 * placeProblemsByRow([{ code: 'rule_sheet_unsupported', severity: 'error', message: '…', range: at(4) }], rows).byRow.get(1)
 */
export function placeProblemsByRow(problems: readonly Diagnostic[], rows: readonly RuleRow[]): PlacedProblems {
  const byRow = new Map<number, Diagnostic[]>();
  const sheet: Diagnostic[] = [];
  for (const problem of problems) {
    const line = problem.line;
    const row = line === undefined ? undefined : rows.find((r) => r.lines.from <= line && line <= r.lines.to);
    if (row === undefined) sheet.push(problem);
    else byRow.set(row.index, [...(byRow.get(row.index) ?? []), problem]);
  }
  return { byRow, sheet };
}
