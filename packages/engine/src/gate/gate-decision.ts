// How the gate words a decision it makes itself (no policy judged): the notice an agent is told follows the
// disclosure level, and the call's action and amount ride along.
import type { Code } from '../codes/index.ts';
import type { DisclosureLevel } from '../policy/evaluate.ts';
import type { GateDecision, GateDecisionKind, GateNotice } from './gate-types.ts';

/** What every decision of one call repeats: its action, and its amount once the gate has read it. */
export interface DecisionBase {
  action: string | null;
  amount: string | null;
  currency: string | null;
}

/** What a step needs to word a decision: the disclosure level and the call's base. */
export interface DecisionScope {
  readonly level: DisclosureLevel;
  readonly base: DecisionBase;
}

/** A decision the gate makes itself (no policy judged). A plain function, not a closure made per call. */
export function gateDecision(
  scope: DecisionScope,
  decision: GateDecisionKind,
  code: Code,
  rule: string | null,
  summary: string,
  confirmation: string | null = null,
): GateDecision {
  const notice: GateNotice = { decision };
  if (confirmation !== null) notice.confirmation = confirmation;
  if (scope.level !== 'none') {
    notice.code = code;
    notice.rule = rule;
    notice.description = summary;
  }
  return { ...scope.base, decision, rule, code, summary, notice, policies: [], approval: null, confirmation };
}

/** A denial the gate makes itself, with no rule named. */
export function gateDenial(scope: DecisionScope, code: Code, summary: string): GateDecision {
  return gateDecision(scope, 'deny', code, null, summary);
}

/** Why a tool whose upstream definition is not the authorized one runs no call through the gateway. */
export function definitionChangedSummary(tool: string): string {
  return `the upstream's definition of ${tool} (its description or schemas) is not the one an owner or admin authorized: it is new or changed since, and an owner or admin must review and authorize it before its calls run, so the call is denied`;
}

/** Why a tool whose binding is not authorized runs no call; says who can mend it. */
export function notAuthorizedSummary(tool: string): string {
  return `${tool}'s binding (its action and amount mapping) is not authorized since it was added or changed: an owner or admin must authorize the tool before its calls run, so the call is denied`;
}
