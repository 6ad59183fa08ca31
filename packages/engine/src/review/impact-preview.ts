// The impact preview of a candidate version on an agent: the decision diff over the catalogue's tools,
// grouped by tool, beside each tool's decision map entry under both versions (docs/review.md).
import type { CompiledPolicy } from '../policy/compile.ts';
import type { ToolBinding } from '../policy/types.ts';
import { type DiffEntry, type DiffOptions, decisionDiff } from './decision-diff.ts';
import { decisionMap, type ToolDecision } from './decision-map.ts';

export interface ToolImpact {
  tool: string;
  action: string;
  /** What the running version does with the tool's calls, and what the candidate would. */
  running: ToolDecision;
  candidate: ToolDecision;
  /** Every region of the tool's calls that changes decision (or may, depending on arguments). */
  changes: DiffEntry[];
}

export interface ImpactPreview {
  /** The tools whose calls change decision (or may), in catalogue order. */
  tools: ToolImpact[];
  /** Names of the tools no call of which changes. */
  unchanged: string[];
  widens: boolean;
  narrows: boolean;
  depends: boolean;
}

/**
 * Which of the catalogue's tools change decision from the running version to the candidate, from what
 * to what. The changes are decisionDiff's over the tools; the maps only say each version's whole answer.
 *
 * @example
 * impactPreview(v2, v1, tools).tools.map((t) => t.changes.map((c) => c.words))
 * // [['issue_refund (refund.issue), amount in (100, 250] USD: allow -> require approval (narrows)']]
 */
export function impactPreview(
  running: CompiledPolicy,
  candidate: CompiledPolicy,
  tools: readonly ToolBinding[],
  options: DiffOptions = {},
): ImpactPreview {
  const diff = decisionDiff(running, candidate, tools, options);
  const before = decisionMap(running, tools, options);
  const after = decisionMap(candidate, tools, options);
  const impacts: ToolImpact[] = [];
  const unchanged: string[] = [];
  tools.forEach((tool, i) => {
    const subject = diff.subjects[i];
    const changes = diff.entries.filter((e) => e.subject === subject);
    if (changes.length === 0) unchanged.push(tool.name);
    else {
      impacts.push({
        tool: tool.name,
        action: tool.action,
        running: before[i] as ToolDecision,
        candidate: after[i] as ToolDecision,
        changes,
      });
    }
  });
  return { tools: impacts, unchanged, widens: diff.widens, narrows: diff.narrows, depends: diff.depends };
}
