// Shadow runs of rule files (docs/review.md, "Shadow runs of rule files"): a candidate rulebook (a sheet's or
// a Colang policy's) checks a call detect-only beside the running one, and where the two verdicts differ the
// difference is reported. Only the running version decides: nothing here changes a decision.
import type { Catalogue } from '../rulebook/catalogue.ts';
import { layOverlay } from '../rulebook/overlay.ts';
import { checkTool, type ToolVerdict } from '../rulebook/tool-check.ts';
import type { CatalogueOverlay, Rulebook } from '../rulebook/types.ts';
import type { GateCall } from './gate-types.ts';

/** A rulebook with the catalogue its sheet's overlay is laid on, ready to check calls. */
export interface ShadowSide {
  readonly rulebook: Rulebook;
  readonly catalogue: Catalogue;
}

/** A rule whose verdict on a call differs between the running version of a rule file and its candidate. */
export interface ShadowDifference {
  /** The rule file's id. */
  document: string;
  /** The rule that decided in the candidate (else in the running version), by its action or tool name. */
  rule: string | null;
  running: ToolVerdict['verdict'];
  candidate: ToolVerdict['verdict'];
}

/**
 * A rulebook and its overlay laid on the catalogue once, for many calls.
 *
 * @example
 * const side = shadowSide(catalogue, compiled.rulebook, compiled.overlay);
 */
export function shadowSide(catalogue: Catalogue, rulebook: Rulebook, overlay?: CatalogueOverlay): ShadowSide {
  return { rulebook, catalogue: overlay ? layOverlay(catalogue, overlay) : catalogue };
}

/**
 * The difference between two versions of a rule file on one call, or undefined when their verdicts agree.
 *
 * @example
 * shadowDifference('sheets/support.rules.yaml', running, candidate, { tool: 'read_order', arguments: {} })
 * // { document: 'sheets/support.rules.yaml', rule: 'read_order', running: 'allow', candidate: 'refuse' }
 */
export function shadowDifference(
  document: string,
  running: ShadowSide,
  candidate: ShadowSide,
  call: GateCall,
): ShadowDifference | undefined {
  const before = verdictOf(running, call);
  const after = verdictOf(candidate, call);
  if (before.verdict === after.verdict) return undefined;
  return { document, rule: ruleOf(after) ?? ruleOf(before) ?? call.tool, running: before.verdict, candidate: after.verdict };
}

function verdictOf(side: ShadowSide, call: GateCall): ToolVerdict {
  return checkTool({
    rulebook: side.rulebook,
    catalogue: side.catalogue,
    call: { tool: call.tool, arguments: call.arguments },
    contexts: call.contexts,
    history: call.history,
    confirmed: call.confirmed,
  });
}

function ruleOf(v: ToolVerdict): string | null {
  return v.verdict === 'allow' ? null : v.rule;
}
