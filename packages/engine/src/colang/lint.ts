// Lints of a Colang rulebook against a catalogue: the sheet's two lints, read off the flows.

import type { Rulebook, RulebookSourceMap } from '../rulebook/types.ts';
import type { LintCatalogue } from '../sheet/lint.ts';
import { byPosition, type Diagnostic } from '../source/diagnostic.ts';

/** `rule_action_unknown` at a flow's line; `write_ungoverned` (line 1) for a write with no flow. */
export function lintRulebook(rulebook: Rulebook, sourceMap: RulebookSourceMap, catalogue: LintCatalogue): Diagnostic[] {
  const lints: Diagnostic[] = [];
  const known = new Set(catalogue.tools.map((t) => t.name));
  const governed = new Set(rulebook.flows.map((f) => f.action));
  // A lint is about a whole rule (or the sheet): it names the line, from its first column.
  const at = (line: number) => ({ line, column: 1, endLine: line, endColumn: 1 });
  for (const flow of rulebook.flows) {
    if (!known.has(flow.action)) {
      lints.push({
        code: 'rule_action_unknown',
        severity: 'warning',
        message: `the rulebook has a flow for \`${flow.action}\`, which the catalogue does not hold`,
        ...at(sourceMap.flows[flow.action]?.line ?? 1),
      });
    }
  }
  for (const tool of catalogue.tools) {
    if (tool.kind === 'write' && !governed.has(tool.name)) {
      lints.push({
        code: 'write_ungoverned',
        severity: 'warning',
        message: `the catalogue's write \`${tool.name}\` has no flow in the rulebook; name it so it is not left ungoverned by omission`,
        ...at(1),
      });
    }
  }
  return lints.sort(byPosition);
}
